// kopt analyzers: cuFFT's data types as device code sees them (the library's API is host code)
#pragma once
#include <cuComplex.h>  // as the toolkit's header: its complex types come with it
typedef float cufftReal; typedef double cufftDoubleReal;
typedef float2 cufftComplex; typedef double2 cufftDoubleComplex;
typedef int cufftHandle; typedef int cufftResult;
