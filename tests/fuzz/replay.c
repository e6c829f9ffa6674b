/* Replays inputs through a fuzz target without libFuzzer (builds without KM_FUZZ): each argument is
 * a file or a directory of files (a seed corpus). Exit status 0 when every input ran, 1 when an
 * argument could not be read or held no input; a violated invariant aborts inside the target. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 0;
    }
    size_t size = 0, capacity = 4096;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data && (got = fread(data + size, 1, capacity - size, f)) > 0) {
        size += got;
        if (size == capacity) {
            uint8_t *grown = realloc(data, capacity *= 2);
            if (!grown)
                free(data);
            data = grown;
        }
    }
    int ok = data && !ferror(f);
    fclose(f);
    if (ok)
        LLVMFuzzerTestOneInput(data, size);
    else
        fprintf(stderr, "%s: cannot read\n", path);
    free(data);
    return ok;
}

/* Replays a file or every regular file of a directory; returns the number of inputs run, -1 on error. */
static long replay(const char *path)
{
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    if (!S_ISDIR(info.st_mode))
        return replay_file(path) ? 1 : -1;
    struct dirent **entries;
    int n = scandir(path, &entries, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "%s: cannot list\n", path);
        return -1;
    }
    long count = 0;
    for (int k = 0; k < n; k++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, entries[k]->d_name);
        if (entries[k]->d_name[0] != '.' && stat(file, &info) == 0 && S_ISREG(info.st_mode))
            count = count >= 0 && replay_file(file) ? count + 1 : -1;
        free(entries[k]);
    }
    free(entries);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 1;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    long total = 0;
    for (int k = 1; k < argc; k++) {
        long count = replay(argv[k]);
        if (count <= 0) {
            fprintf(stderr, "%s: no input replayed\n", argv[k]);
            return 1;
        }
        total += count;
    }
    printf("%ld inputs replayed\n", total);
    return 0;
}
