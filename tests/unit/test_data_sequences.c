/* The labelled-sequence reader: LABEL<TAB>SEQUENCE lines and FASTA with >LABEL headers, the alphabet
 * check and its messages (file, line, column, character). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "data/readers.h"
#include "kernelmix.h"

static km_status read_text(const char *text, const char *alphabet, km_dataset **out)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        return KM_EIO;
    km_status st = km_read_sequences_stream(f, "seqs", alphabet, out);
    fclose(f);
    return st;
}

/* The message of reading text, which must fail with status. */
static const char *failure(const char *text, const char *alphabet, km_status status)
{
    km_dataset *data = (km_dataset *)&data;
    CHECK_STATUS(read_text(text, alphabet, &data), status);
    CHECK(data == NULL);
    return km_last_error();
}

KM_TEST_CASE(tab_lines)
{
    km_dataset *data = NULL;
    CHECK_OK(read_text("# comment\n+1\tACGT\r\n\n-1\tacgtTT\n2.5\tG\n", NULL, &data));
    if (!data)
        return;
    size_t len;
    CHECK(km_dataset_rows(data) == 3 && km_dataset_dim(data) == 0);
    CHECK(!strcmp(km_dataset_string(data, 0, &len), "ACGT") && len == 4);
    CHECK(!strcmp(km_dataset_string(data, 1, &len), "ACGTTT") && len == 6);   /* read as upper case */
    CHECK(!strcmp(km_dataset_string(data, 2, &len), "G") && len == 1);
    const double *y = km_dataset_labels(data);
    CHECK(y[0] == 1 && y[1] == -1 && y[2] == 2.5);
    km_dataset_free(data);
}

KM_TEST_CASE(fasta_records)
{
    km_dataset *data = NULL;
    CHECK_OK(read_text(">1 first record\nACGT\nAC\n; old comment\n\n>  -1\nTTTT\n>3\ngg\n", NULL, &data));
    if (!data)
        return;
    size_t len;
    CHECK(km_dataset_rows(data) == 3);
    CHECK(!strcmp(km_dataset_string(data, 0, &len), "ACGTAC") && len == 6);
    CHECK(!strcmp(km_dataset_string(data, 1, NULL), "TTTT") && !strcmp(km_dataset_string(data, 2, NULL), "GG"));
    CHECK(km_dataset_labels(data)[1] == -1 && km_dataset_labels(data)[2] == 3);
    km_dataset_free(data);
}

KM_TEST_CASE(alphabets)
{
    km_dataset *data = NULL;
    /* a lower-case alphabet keeps case and refuses upper case */
    CHECK_OK(read_text("1\tacgu\n", "acgu", &data));
    CHECK(data && !strcmp(km_dataset_string(data, 0, NULL), "acgu"));
    km_dataset_free(data);
    CHECK(!strcmp(failure("1\tacgU\n", "acgu", KM_EFORMAT), "seqs:1:6: character 'U' is not in the alphabet acgu"));
    CHECK_OK(read_text("1\tMKVLA\n", "ACDEFGHIKLMNPQRSTVWY", &data));
    CHECK(data && !strcmp(km_dataset_string(data, 0, NULL), "MKVLA"));
    km_dataset_free(data);
    CHECK(strstr(failure("1\tA\n", "", KM_EINVAL), "the alphabet is empty"));
    CHECK(strstr(failure("1\tA\n", "A C", KM_EINVAL), "may not hold blanks"));
}

KM_TEST_CASE(errors_name_line_column_character)
{
    CHECK(!strcmp(failure("1\tACGT\n-1\tACNT\n", NULL, KM_EFORMAT), "seqs:2:6: character 'N' is not in the alphabet ACGT"));
    CHECK(!strcmp(failure("1\tAC GT\n", NULL, KM_EFORMAT), "seqs:1:5: character \\x20 is not in the alphabet ACGT"));
    CHECK(!strcmp(failure("1\tACGT\n1 ACGT\n", NULL, KM_EFORMAT),
                  "seqs:2: expected LABEL<TAB>SEQUENCE (no tab on the line)"));
    CHECK(!strcmp(failure("yes\tACGT\n", NULL, KM_EFORMAT), "seqs:1:1: the label \"yes\" is not a finite number"));
    /* a line's trailing blanks are dropped: an empty sequence leaves no tab */
    CHECK(!strcmp(failure("1\t\n2\tA\n", NULL, KM_EFORMAT), "seqs:1: expected LABEL<TAB>SEQUENCE (no tab on the line)"));
    CHECK(!strcmp(failure(">1\nACGT\n>2\n>3\nAC\n", NULL, KM_EFORMAT), "seqs:3: the sequence is empty"));
    CHECK(!strcmp(failure(">1\nACGT\n>2\n", NULL, KM_EFORMAT), "seqs:3: the sequence is empty"));
    CHECK(!strcmp(failure(">1\nAC\nGXT\n", NULL, KM_EFORMAT), "seqs:3:2: character 'X' is not in the alphabet ACGT"));
    CHECK(!strcmp(failure(">\nAC\n", NULL, KM_EFORMAT), "seqs:1: the header has no label (expected >LABEL)"));
    CHECK(!strcmp(failure(">x1\nAC\n", NULL, KM_EFORMAT), "seqs:1:2: the label \"x1\" is not a finite number"));
    CHECK(!strcmp(failure("# nothing\n\n", NULL, KM_EFORMAT), "seqs: no sequences"));
    CHECK(!strcmp(failure("1\tAC\n>2\nAC\n", NULL, KM_EFORMAT), "seqs:2: expected LABEL<TAB>SEQUENCE (no tab on the line)"));
}

KM_TEST_CASE(file_and_missing_file)
{
    FILE *f = fopen("two.fa", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(">+1 donor\nACGTAC\n>-1\nTTGACA\n", f);
    fclose(f);
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_read_sequences("two.fa", NULL, &data));
    CHECK(data && km_dataset_rows(data) == 2 && km_dataset_labels(data)[0] == 1);
    km_dataset_free(data);
    remove("two.fa");
    CHECK_STATUS(km_dataset_read_sequences("no-such-file.seq", NULL, &data), KM_EIO);
}
