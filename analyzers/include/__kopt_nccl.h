// kopt analyzers: NCCL's types, constants and API as <nccl.h> declares them, for a header found nowhere (a host
// helper or class holding an `ncclComm_t` beside the kernels); a project's own configured nccl.h wins
#pragma once
typedef struct ncclComm *ncclComm_t;
#define NCCL_UNIQUE_ID_BYTES 128
typedef struct { char internal[NCCL_UNIQUE_ID_BYTES]; } ncclUniqueId;
typedef enum { ncclSuccess = 0, ncclUnhandledCudaError = 1, ncclSystemError = 2, ncclInternalError = 3,
               ncclInvalidArgument = 4, ncclInvalidUsage = 5, ncclRemoteError = 6, ncclInProgress = 7,
               ncclNumResults = 8 } ncclResult_t;
typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4, ncclNumOps = 5,
               ncclMaxRedOp = 0x7fffffff } ncclRedOp_t;
typedef enum { ncclInt8 = 0, ncclChar = 0, ncclUint8 = 1, ncclInt32 = 2, ncclInt = 2, ncclUint32 = 3, ncclInt64 = 4,
               ncclUint64 = 5, ncclFloat16 = 6, ncclHalf = 6, ncclFloat32 = 7, ncclFloat = 7, ncclFloat64 = 8,
               ncclDouble = 8, ncclBfloat16 = 9, ncclFloat8e4m3 = 10, ncclFloat8e5m2 = 11,
               ncclNumTypes = 12 } ncclDataType_t;
extern "C" {
ncclResult_t ncclGetVersion(int *); ncclResult_t ncclGetUniqueId(ncclUniqueId *);
ncclResult_t ncclCommInitRank(ncclComm_t *, int, ncclUniqueId, int);
ncclResult_t ncclCommInitAll(ncclComm_t *, int, const int *); ncclResult_t ncclCommDestroy(ncclComm_t);
ncclResult_t ncclCommFinalize(ncclComm_t); ncclResult_t ncclCommAbort(ncclComm_t);
const char *ncclGetErrorString(ncclResult_t); ncclResult_t ncclCommCount(const ncclComm_t, int *);
ncclResult_t ncclCommCuDevice(const ncclComm_t, int *); ncclResult_t ncclCommUserRank(const ncclComm_t, int *);
ncclResult_t ncclReduce(const void *, void *, unsigned long, ncclDataType_t, ncclRedOp_t, int, ncclComm_t, cudaStream_t);
ncclResult_t ncclBcast(void *, unsigned long, ncclDataType_t, int, ncclComm_t, cudaStream_t);
ncclResult_t ncclBroadcast(const void *, void *, unsigned long, ncclDataType_t, int, ncclComm_t, cudaStream_t);
ncclResult_t ncclAllReduce(const void *, void *, unsigned long, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
ncclResult_t ncclReduceScatter(const void *, void *, unsigned long, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                               cudaStream_t);
ncclResult_t ncclAllGather(const void *, void *, unsigned long, ncclDataType_t, ncclComm_t, cudaStream_t);
ncclResult_t ncclSend(const void *, unsigned long, ncclDataType_t, int, ncclComm_t, cudaStream_t);
ncclResult_t ncclRecv(void *, unsigned long, ncclDataType_t, int, ncclComm_t, cudaStream_t);
ncclResult_t ncclGroupStart(); ncclResult_t ncclGroupEnd();
}
