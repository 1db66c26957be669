// kopt analyzers: cuSPARSE's handle, status and descriptor types, which host structs and launchers hold
#pragma once
#include <cuComplex.h>  // as the toolkit's header: its complex types come with it
typedef struct cusparseContext *cusparseHandle_t;
typedef struct cusparseMatDescr *cusparseMatDescr_t;
// the generic API's descriptors (host structs hold them: MAGMA's matrix type)
typedef struct cusparseSpVecDescr *cusparseSpVecDescr_t; typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t; typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseSpSVDescr *cusparseSpSVDescr_t; typedef struct cusparseSpSMDescr *cusparseSpSMDescr_t;
typedef struct cusparseSpGEMMDescr *cusparseSpGEMMDescr_t;
typedef enum { CUSPARSE_STATUS_SUCCESS = 0, CUSPARSE_STATUS_NOT_INITIALIZED = 1, CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3, CUSPARSE_STATUS_INTERNAL_ERROR = 7 } cusparseStatus_t;
typedef enum { CUSPARSE_OPERATION_NON_TRANSPOSE = 0, CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2 } cusparseOperation_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
