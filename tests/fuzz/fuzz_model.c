/* Fuzz target: the model loader. The input is written to an in-memory file and loaded with
 * km_model_load. When the input has a checksum line, its value is replaced by the correct CRC-32 of
 * the bytes before it, so that mutations reach the body parser instead of stopping at the checksum;
 * inputs without one exercise the header and checksum checks. The same bytes loaded from memory
 * (km_model_load_buffer) must give the same outcome. A model that loads must predict its own basis
 * rows (or refuse with a message when it needs precomputed test kernels), and its saved bytes must
 * load and save again to the same bytes. */
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

/* Writes the input, its checksum line corrected, to the in-memory file; returns the bytes written
 * (the caller frees them). */
static char *write_model_file(const uint8_t *data, size_t size, size_t *written)
{
    size_t body = checksum_line(data, size);
    char line[32] = "";
    if (body < size)
        snprintf(line, sizeof line, "checksum crc32 %08x\n", (unsigned)km_crc32(0, data, body));
    size_t line_len = strlen(line);
    if (ftruncate(model_fd, 0) != 0 || pwrite(model_fd, data, body, 0) != (ssize_t)body ||
        pwrite(model_fd, line, line_len, (off_t)body) != (ssize_t)line_len)
        fuzz_fail("cannot write the in-memory model file");
    char *bytes = malloc(body + line_len + 1);
    if (!bytes)
        fuzz_fail("out of memory");
    memcpy(bytes, data, body);
    memcpy(bytes + body, line, line_len);
    *written = body + line_len;
    return bytes;
}

/* Saving, loading and saving again gives the same bytes. */
static void check_round_trip(const km_model *model)
{
    void *first = NULL, *second = NULL;
    size_t first_size = 0, second_size = 0;
    km_model *again = NULL;
    if (km_model_save_buffer(model, &first, &first_size) != KM_OK)
        fuzz_fail("a loaded model cannot be saved");
    if (km_model_load_buffer(first, first_size, &again) != KM_OK)
        fuzz_fail("a saved model does not load");
    if (km_model_save_buffer(again, &second, &second_size) != KM_OK || second_size != first_size ||
        memcmp(first, second, first_size) != 0)
        fuzz_fail("a saved model does not save to the same bytes");
    km_model_free(again);
    km_free(first);
    km_free(second);
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
    size_t written;
    char *bytes = write_model_file(data, size, &written);
    km_model *model = NULL, *from_memory = NULL;
    km_status st = km_model_load(model_path, &model);
    if (st == KM_OK) {
        if (km_model_check(model, model_path, KM_EFORMAT) != KM_OK)
            fuzz_fail("a loaded model fails its own check");
        if (model->basis && km_dataset_rows(model->basis) > 0)
            predict_basis(model);
        check_round_trip(model);
    } else if (model || km_last_error()[0] == '\0') {
        fuzz_fail("a failed load returned a model or no message");
    }
    if ((km_model_load_buffer(bytes, written, &from_memory) == KM_OK) != (st == KM_OK))
        fuzz_fail("the file and the same bytes in memory load differently");
    km_model_free(from_memory);
    km_model_free(model);
    free(bytes);
    return 0;
}
