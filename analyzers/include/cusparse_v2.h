#pragma once
#include <cusparse.h>
