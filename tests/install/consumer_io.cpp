// SPDX-License-Identifier: MIT
// consumer_io.c compiled as C++ (the headers and the call sites must be valid C++).
#include "consumer_io.c"
