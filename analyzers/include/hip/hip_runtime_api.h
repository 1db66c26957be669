#pragma once
// kopt analyzer stub: see hip_runtime.h
#include "hip_runtime.h"
