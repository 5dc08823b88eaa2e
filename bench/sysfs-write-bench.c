// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs-write-bench: time writes to one sysfs attribute (make bench).
 *
 *   sysfs-write-bench FILE COUNT alternate|same VALUE1 VALUE2
 *
 * Writes COUNT times to FILE with pwrite() at offset 0, each write one
 * value followed by a newline, and prints
 *
 *   upath MODE writes=COUNT ns=TOTAL
 *
 * with the CLOCK_MONOTONIC time the COUNT writes took.  "alternate" writes
 * VALUE1, VALUE2, VALUE1, ... after an untimed VALUE2, so that every timed
 * write changes the value; "same" writes VALUE1 every time after an untimed
 * VALUE1, so that none does.  Any failed or short write stops the run with
 * exit status 1.  Built statically on the host, run in the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void put(int fd, const char *buf, size_t len, const char *file)
{
	ssize_t n = pwrite(fd, buf, len, 0);

	if (n != (ssize_t)len) {
		fprintf(stderr, "sysfs-write-bench: %s: write of %.*s: %s\n", file,
			(int)len - 1, buf, n < 0 ? strerror(errno) : "short write");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	char v[2][32];
	size_t len[2];
	unsigned long count, i;
	unsigned long long t0, t1;
	int alternate, fd;

	if (argc != 6 || (strcmp(argv[3], "alternate") && strcmp(argv[3], "same"))) {
		fprintf(stderr, "usage: %s FILE COUNT alternate|same VALUE1 VALUE2\n", argv[0]);
		return 2;
	}
	count = strtoul(argv[2], NULL, 10);
	alternate = !strcmp(argv[3], "alternate");
	for (i = 0; i < 2; i++) {
		int n = snprintf(v[i], sizeof(v[i]), "%s\n", argv[4 + i]);

		if (n < 0 || (size_t)n >= sizeof(v[i])) {
			fprintf(stderr, "sysfs-write-bench: value too long\n");
			return 2;
		}
		len[i] = n;
	}

	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "sysfs-write-bench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}

	if (alternate)
		put(fd, v[1], len[1], argv[1]);
	else
		put(fd, v[0], len[0], argv[1]);

	t0 = now_ns();
	for (i = 0; i < count; i++) {
		int k = alternate ? (int)(i & 1) : 0;

		put(fd, v[k], len[k], argv[1]);
	}
	t1 = now_ns();

	printf("upath %s writes=%lu ns=%llu\n", argv[3], count, t1 - t0);
	close(fd);
	return 0;
}
