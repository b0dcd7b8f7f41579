// SPDX-License-Identifier: MIT
// pthread.h for the npm package's wasm32 build: the module runs on one thread (wasi-libc has no
// threads here), so the one lock the rig-file reader takes around cJSON's parse is a no-op.
#ifndef SPRING_JS_PTHREAD_H
#define SPRING_JS_PTHREAD_H

typedef int pthread_mutex_t;
#define PTHREAD_MUTEX_INITIALIZER 0

static inline int pthread_mutex_lock(pthread_mutex_t *m)
{
	(void)m;
	return 0;
}

static inline int pthread_mutex_unlock(pthread_mutex_t *m)
{
	(void)m;
	return 0;
}

#endif
