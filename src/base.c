// Result strings, float checks, allocator and assertion hooks.
#include "spring/base.h"

#include "spring_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *spring_result_string(spring_result r)
{
	switch (r) {
	case SPRING_OK: return "ok";
	case SPRING_ERROR_INVALID_ARGUMENT: return "invalid argument (NULL pointer, bad count or enum value)";
	case SPRING_ERROR_NOT_FINITE: return "a number is NaN or infinite";
	case SPRING_ERROR_OUT_OF_RANGE: return "a number is outside its allowed range";
	case SPRING_ERROR_UNSTABLE: return "the integrator is unstable for these parameters and step";
	case SPRING_ERROR_NO_SOLUTION: return "no spring has these parameters";
	case SPRING_ERROR_OUT_OF_MEMORY: return "out of memory";
	case SPRING_ERROR_BAD_DEFINITION: return "inconsistent chain or rig definition";
	case SPRING_RESULT_COUNT: break;
	}
	return "unknown spring_result";
}

int spring_is_finite(float x)
{
	// x - x is 0 for finite x and NaN for inf/NaN; comparisons with NaN are false.
	return (x - x) == 0.0f;
}

static void *default_alloc(size_t size, size_t alignment, void *context)
{
	(void)context;
	if (alignment < sizeof(void *)) {
		alignment = sizeof(void *);
	}
	// Portable aligned allocation: over-allocate and store the original pointer before the block.
	size_t total = size + alignment + sizeof(void *);
	if (total < size) {
		return NULL;
	}
	unsigned char *raw = (unsigned char *)malloc(total);
	if (!raw) {
		return NULL;
	}
	uintptr_t start = (uintptr_t)(raw + sizeof(void *));
	uintptr_t aligned = (start + (alignment - 1)) & ~(uintptr_t)(alignment - 1);
	memcpy((void *)(aligned - sizeof(void *)), &raw, sizeof raw);
	return (void *)aligned;
}

static void default_free(void *pointer, void *context)
{
	(void)context;
	if (pointer) {
		void *raw;
		memcpy(&raw, (unsigned char *)pointer - sizeof(void *), sizeof raw);
		free(raw);
	}
}

static spring_allocator g_allocator = {default_alloc, default_free, NULL};

void spring_set_allocator(const spring_allocator *allocator)
{
	if (allocator && allocator->alloc && allocator->free) {
		g_allocator = *allocator;
	} else {
		g_allocator.alloc = default_alloc;
		g_allocator.free = default_free;
		g_allocator.context = NULL;
	}
}

spring_allocator spring_get_allocator(void)
{
	return g_allocator;
}

static spring_assert_fn *g_assert_fn;

void spring_set_assert(spring_assert_fn *fn)
{
	g_assert_fn = fn;
}

#if !defined(NDEBUG) || defined(SPRING_ENABLE_ASSERT)
int spring_internal_assert(const char *condition, const char *file, int line)
{
	if (g_assert_fn) {
		if (!g_assert_fn(condition, file, line)) {
			return 0;
		}
	} else {
		fprintf(stderr, "libspring: assertion failed: %s (%s:%d)\n", condition, file, line);
	}
	abort();
}
#endif

spring_result spring_internal_create(const void *desc, size_t size, spring_init_thunk *init, void **out,
                                     spring_allocator *used, const char *kind, spring_error *error)
{
	if (size == 0 || !out) {
		return init(desc, NULL, 0, out, error); // reports the reason
	}
	spring_allocator a = g_allocator;
	void *memory = a.alloc(size, 16, a.context);
	if (!memory) {
		if (error) {
			memset(error, 0, sizeof *error);
			error->result = SPRING_ERROR_OUT_OF_MEMORY;
			error->index = -1;
			snprintf(error->kind, sizeof error->kind, "%s", kind);
			snprintf(error->field, sizeof error->field, "memory");
			snprintf(error->message, sizeof error->message, "%s: memory: the allocator returned NULL for %zu bytes", kind, size);
		}
		return SPRING_ERROR_OUT_OF_MEMORY;
	}
	void *object = NULL;
	spring_result r = init(desc, memory, size, &object, error);
	if (r != SPRING_OK) {
		a.free(memory, a.context); // for example a custom allocator that ignored the alignment
		return r;
	}
	*used = a;
	*out = object;
	return SPRING_OK;
}
