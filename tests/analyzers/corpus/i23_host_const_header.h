// Launch sizes of the i23_host_const_header_* corpus kernels: integer constants, not macros.
#ifndef I23_HOST_CONST_HEADER_H
#define I23_HOST_CONST_HEADER_H
static const int ROW_THREADS = 128;
constexpr unsigned int STAGE_THREADS = 256;
#endif
