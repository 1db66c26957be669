#pragma once
#include <curand_kernel.h>
