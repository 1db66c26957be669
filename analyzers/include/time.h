#pragma once
// kopt analyzer stub: the C clock and calendar names host helpers around kernels use (clock_t and the device's
// clock() come from analyzers/cuda_decls.h, force-included)
#define CLOCKS_PER_SEC 1000000l
typedef long time_t;
struct timespec { time_t tv_sec; long tv_nsec; };
struct tm { int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst; };
time_t time(time_t *);
double difftime(time_t, time_t);
struct tm *localtime(const time_t *);
char *ctime(const time_t *);
