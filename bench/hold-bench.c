// SPDX-License-Identifier: GPL-2.0
/*
 * hold-bench: requests held through /dev/latency_tolerance (make bench).
 *
 *   hold-bench ATTR MS WRITES COUNT...
 *
 * ATTR is a device's power/pm_qos_latency_tolerance_us, set to 1 us for the
 * whole run (and to "auto" after it), so that no timed operation changes the
 * effective value: the device's callback is not called, and the figures are
 * those of the PM QoS core and the file operations.  Prints
 *
 *   holders rate holds=N ns=T
 *
 * the holds and releases (open, ioctl, write of 1000, close) made in MS
 * milliseconds, and for each COUNT N
 *
 *   holders update n=N writes=WRITES ns=T
 *
 * with N holders, N - 1 of them holding even values of their own (2 us up),
 * the time WRITES writes of the last one took, alternating between two odd
 * values in the middle of them: the worst case for the sorted request list
 * (plist_add() walks its distinct values from both ends).  Any failure stops the run with exit status 1.  Built statically
 * on the host, run in the guest as root (it raises RLIMIT_NOFILE).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/latency_tolerance.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void fail(const char *what)
{
	fprintf(stderr, "hold-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set(int fd, unsigned long us)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%lu", us);

	if (write(fd, buf, len) != len)
		fail("write");
}

/* A holder of @us for @attr_fd's device. */
static int hold(int attr_fd, unsigned long us)
{
	int fd = open("/dev/latency_tolerance", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		fail("/dev/latency_tolerance");
	if (ioctl(fd, LATENCY_TOLERANCE_IOC_TARGET, attr_fd))
		fail("LATENCY_TOLERANCE_IOC_TARGET");
	set(fd, us);
	return fd;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t, ms, writes, holds = 0;
	int attr_fd, *fds, i, n, max = 1;
	const char *attr;
	struct rlimit rl;

	if (argc < 5) {
		fprintf(stderr, "usage: hold-bench ATTR MS WRITES COUNT...\n");
		return 2;
	}
	attr = argv[1];
	ms = strtoull(argv[2], NULL, 10);
	writes = strtoull(argv[3], NULL, 10);
	for (i = 4; i < argc; i++)
		if (atoi(argv[i]) > max)
			max = atoi(argv[i]);
	rl.rlim_cur = rl.rlim_max = max + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fail("setrlimit");
	fds = calloc(max, sizeof(*fds));
	attr_fd = open(attr, O_WRONLY | O_CLOEXEC);
	if (!fds || attr_fd < 0)
		fail(attr);

	set(attr_fd, 1);
	t0 = now_ns();
	do {
		close(hold(attr_fd, 1000));
		holds++;
		t = now_ns();
	} while (t - t0 < ms * 1000000ULL);
	printf("holders rate holds=%llu ns=%llu\n", holds, t - t0);

	for (i = 4; i < argc; i++) {
		n = atoi(argv[i]);
		if (n < 1)
			continue;
		for (int k = 0; k < n; k++)
			fds[k] = hold(attr_fd, k == n - 1 ? (n | 1) : 2 * (k + 1));
		t0 = now_ns();
		for (unsigned long long w = 0; w < writes; w++)
			set(fds[n - 1], w & 1 ? (n | 1) : (n | 1) + 2);
		t = now_ns();
		printf("holders update n=%d writes=%llu ns=%llu\n", n, writes, t - t0);
		for (int k = 0; k < n; k++)
			close(fds[k]);
	}
	if (write(attr_fd, "auto", 4) != 4)
		fail(attr);
	return 0;
}
