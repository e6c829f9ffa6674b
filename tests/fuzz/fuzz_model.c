/* Fuzz target: the model loader. The input is written to an in-memory file and loaded with
 * km_model_load. When the input has a checksum line, its value is replaced by the correct CRC-32 of
 * the bytes before it, so that mutations reach the body parser instead of stopping at the checksum;
 * inputs without one exercise the header and checksum checks. A model that loads must predict its
 * own basis rows (or refuse with a message when it needs precomputed test kernels). */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "model/model_io.h"

static int model_fd = -1;
static char model_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    model_fd = memfd_create("fuzz.model", 0);
    if (model_fd < 0)
        fuzz_fail("memfd_create failed");
    snprintf(model_path, sizeof model_path, "/proc/self/fd/%d", model_fd);
    return 0;
}

/* Offset of the line "checksum ..." that ends the input (the last line starting with it), or size. */
static size_t checksum_line(const uint8_t *data, size_t size)
{
    static const char key[] = "checksum ";
    for (size_t k = size; k-- > 0;)
        if ((k == 0 || data[k - 1] == '\n') && size - k >= sizeof key - 1 && !memcmp(data + k, key, sizeof key - 1))
            return k;
    return size;
}

static void write_model_file(const uint8_t *data, size_t size)
{
    size_t body = checksum_line(data, size);
    char line[32] = "";
    if (body < size)
        snprintf(line, sizeof line, "checksum crc32 %08x\n", (unsigned)km_crc32(0, data, body));
    size_t line_len = strlen(line);
    if (ftruncate(model_fd, 0) != 0 || pwrite(model_fd, data, body, 0) != (ssize_t)body ||
        pwrite(model_fd, line, line_len, (off_t)body) != (ssize_t)line_len)
        fuzz_fail("cannot write the in-memory model file");
}

static void predict_basis(const km_model *model)
{
    size_t n = km_dataset_rows(model->basis), n_decision = km_model_n_decision(model);
    double *labels = malloc((n ? n : 1) * sizeof *labels);
    double *decision = malloc((n ? n : 1) * (n_decision ? n_decision : 1) * sizeof *decision);
    if (labels && decision && km_predict(model, model->basis, NULL, labels, decision) != KM_OK &&
        km_last_error()[0] == '\0')
        fuzz_fail("a failed prediction left no message");
    free(labels);
    free(decision);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_model_file(data, size);
    km_model *model = NULL;
    if (km_model_load(model_path, &model) == KM_OK) {
        if (km_model_check(model, model_path, KM_EFORMAT) != KM_OK)
            fuzz_fail("a loaded model fails its own check");
        if (model->basis && km_dataset_rows(model->basis) > 0)
            predict_basis(model);
    } else if (model || km_last_error()[0] == '\0') {
        fuzz_fail("a failed load returned a model or no message");
    }
    km_model_free(model);
    return 0;
}
