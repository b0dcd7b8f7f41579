// SPDX-License-Identifier: MIT
// The break of the package's wasm modules (wasi-libc's malloc asks sbrk for more memory; this
// definition replaces wasi-libc's). wasi-libc grows the wasm memory by exactly what malloc asks,
// a few pages at a time, and in V8 (Node, Chromium) every growth counts as external memory: once
// the memory is past V8's external-memory limit (64 MiB) each growth asks for a full garbage
// collection, so that creating objects that are not disposed within one task got 40-60 times
// slower from about 64 MiB on (each creation grew the memory, each growth collected the whole
// JavaScript heap). Here the memory grows by at least half of its size each time (the break
// moves within what was grown), so growths, and the collections they ask for, are logarithmic
// in the memory used: creation costs the same early and late.
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#define PAGE 65536u

static uintptr_t g_break; // 0 until the first call: then the end of the memory the module started with

void *sbrk(intptr_t increment);

void *sbrk(intptr_t increment)
{
	uintptr_t end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
	if (g_break == 0) {
		g_break = end;
	}
	if (increment < 0) {
		errno = EINVAL; // malloc never gives memory back to a wasm memory (it cannot shrink)
		return (void *)-1;
	}
	uintptr_t old = g_break, need = (uintptr_t)increment;
	if (need > UINTPTR_MAX - old) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (old + need > end) {
		size_t pages = (size_t)((old + need - end + PAGE - 1u) / PAGE);
		size_t half = (size_t)(end / PAGE / 2u);
		// At least half again the memory; exactly what is needed when that much is not there.
		if (half <= pages || __builtin_wasm_memory_grow(0, half) == SIZE_MAX) {
			if (__builtin_wasm_memory_grow(0, pages) == SIZE_MAX) {
				errno = ENOMEM;
				return (void *)-1;
			}
		}
	}
	g_break = old + need;
	return (void *)old;
}
