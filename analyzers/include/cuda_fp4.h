#pragma once
// kopt analyzer stub: declarations come from analyzers/cuda_decls.h (force-included) and __kopt_half_ops.h
#include "__kopt_half_ops.h"
