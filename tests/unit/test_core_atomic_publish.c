/* Publishing several output files together (km_atomic_publish_all): all of them or none. A failure
 * between two renames, forced at every point (the observed variant's call) or by a rename that the
 * file system refuses, puts every replaced file back (the same inode, its old bytes) and removes the
 * new ones; a signal raised between renames takes effect only once the whole set is published; and
 * standard output ("-") receives what was written only when it is published, nothing on an abort or a
 * failed set. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/atomic_file.h"
#include "kernelmix.h"

enum { N_FILES = 3 };
static const char *const NAMES[N_FILES] = {"K.1.bin", "K.2.bin", "K.3.bin"};

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The file's text (at most 63 bytes), or "" when it does not exist. */
static const char *text_of(const char *path, char *buf)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(buf, 1, 63, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

static ino_t inode(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* Files in the working directory whose names start with ".kernelmix-" (temporaries, kept names). */
static int leftovers(void)
{
    DIR *dir = opendir(".");
    int found = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        found += strncmp(entry->d_name, ".kernelmix-", 11) == 0;
    if (dir)
        closedir(dir);
    return found;
}

/* The old state: K.1.bin and K.3.bin exist ("old 1", "old 3"), K.2.bin does not. */
static void old_state(ino_t *inodes)
{
    remove(NAMES[1]);
    write_text(NAMES[0], "old 1");
    write_text(NAMES[2], "old 3");
    for (int k = 0; k < N_FILES; k++)
        inodes[k] = inode(NAMES[k]);
}

/* The new files, written and finished, not yet published. */
static void finished_files(km_atomic_file *files)
{
    for (int k = 0; k < N_FILES; k++) {
        CHECK_OK(km_atomic_open(&files[k], NAMES[k], "kernel matrix"));
        fprintf(files[k].stream, "new %d", k + 1);
        CHECK_OK(km_atomic_finish(&files[k]));
    }
}

static void expect_old_state(const ino_t *inodes)
{
    char buf[64];
    CHECK(strcmp(text_of(NAMES[0], buf), "old 1") == 0);
    CHECK(access(NAMES[1], F_OK) != 0);
    CHECK(strcmp(text_of(NAMES[2], buf), "old 3") == 0);
    CHECK(inode(NAMES[0]) == inodes[0] && inode(NAMES[2]) == inodes[2]);
    CHECK(leftovers() == 0);
}

static void expect_new_state(void)
{
    char buf[64], want[16];
    for (int k = 0; k < N_FILES; k++) {
        snprintf(want, sizeof want, "new %d", k + 1);
        CHECK(strcmp(text_of(NAMES[k], buf), want) == 0);
    }
    CHECK(leftovers() == 0);
}

KM_TEST_CASE(all_published)
{
    ino_t inodes[N_FILES];
    km_atomic_file files[N_FILES];
    old_state(inodes);
    finished_files(files);
    CHECK_OK(km_atomic_publish_all(files, N_FILES));
    expect_new_state();
}

/* Fails the publication after `at` renames. */
static int fail_at(size_t published, void *user) { return published == *(const size_t *)user; }

KM_TEST_CASE(failure_between_renames_puts_everything_back)
{
    for (size_t at = 1; at < N_FILES; at++) {
        ino_t inodes[N_FILES];
        km_atomic_file files[N_FILES];
        old_state(inodes);
        finished_files(files);
        CHECK_STATUS(km_atomic_publish_all_observed(files, N_FILES, fail_at, &at), KM_EIO);
        CHECK(strstr(km_last_error(), NAMES[at]) != NULL);
        expect_old_state(inodes);
    }
}

/* A rename the file system refuses (the destination became a directory that is not empty). */
KM_TEST_CASE(refused_rename_puts_everything_back)
{
    ino_t inodes[N_FILES];
    km_atomic_file files[N_FILES];
    old_state(inodes);
    finished_files(files);
    mkdir(NAMES[1], 0777);
    write_text("K.2.bin/inside", "x");
    CHECK_STATUS(km_atomic_publish_all(files, N_FILES), KM_EIO);
    CHECK(strstr(km_last_error(), NAMES[1]) != NULL);
    remove("K.2.bin/inside");
    CHECK(rmdir(NAMES[1]) == 0);   /* the directory is still there, untouched */
    expect_old_state(inodes);
}

/* SIGINT raised between the renames is held until every file is published; the handler then sees
 * the new set complete. */
static volatile sig_atomic_t delivered, complete_at_delivery;

static void on_sigint(int signal_number)
{
    (void)signal_number;
    char buf[64];
    int complete = 1;
    for (int k = 0; k < N_FILES; k++) {
        char want[16];
        snprintf(want, sizeof want, "new %d", k + 1);
        complete &= strcmp(text_of(NAMES[k], buf), want) == 0;
    }
    complete_at_delivery = complete;
    delivered = 1;
}

static int raise_sigint(size_t published, void *user)
{
    (void)published;
    (void)user;
    raise(SIGINT);
    return 0;
}

KM_TEST_CASE(signal_between_renames_waits_for_the_whole_set)
{
    ino_t inodes[N_FILES];
    km_atomic_file files[N_FILES];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    CHECK(sigaction(SIGINT, &action, NULL) == 0);
    old_state(inodes);
    finished_files(files);
    CHECK_OK(km_atomic_publish_all_observed(files, N_FILES, raise_sigint, NULL));
    CHECK(delivered == 1);
    CHECK(complete_at_delivery == 1);
    expect_new_state();
    signal(SIGINT, SIG_DFL);
}

/* Standard output redirected to a file for the test's checks; restores it. */
static int redirect_stdout(const char *path)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    CHECK(saved >= 0 && fd >= 0);
    dup2(fd, STDOUT_FILENO);
    close(fd);
    return saved;
}

static void restore_stdout(int saved)
{
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
}

KM_TEST_CASE(standard_output_only_when_published)
{
    char buf[64];
    km_atomic_file out;
    int saved = redirect_stdout("stdout.txt");
    /* aborted: nothing */
    CHECK_OK(km_atomic_open(&out, "-", "predictions"));
    fputs("partial", out.stream);
    km_atomic_abort(&out);
    /* a failed set with standard output in it: nothing either */
    ino_t inodes[N_FILES];
    km_atomic_file files[N_FILES + 1];
    old_state(inodes);
    finished_files(files);
    CHECK_OK(km_atomic_open(&files[N_FILES], "-", "predictions"));
    fputs("set", files[N_FILES].stream);
    CHECK_OK(km_atomic_finish(&files[N_FILES]));
    size_t at = 2;
    CHECK_STATUS(km_atomic_publish_all_observed(files, N_FILES + 1, fail_at, &at), KM_EIO);
    /* committed: all of it, after what stdio held */
    printf("before ");
    CHECK_OK(km_atomic_open(&out, "-", "predictions"));
    fputs("complete\n", out.stream);
    CHECK_OK(km_atomic_commit(&out));
    restore_stdout(saved);
    CHECK(strcmp(text_of("stdout.txt", buf), "before complete\n") == 0);
    expect_old_state(inodes);
    remove("stdout.txt");
}
