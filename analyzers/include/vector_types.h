#pragma once
// kopt analyzer stub: declarations come from analyzers/cuda_decls.h (force-included)
