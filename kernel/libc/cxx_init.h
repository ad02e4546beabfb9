/* kernel/libc/cxx_init.h: the application's static constructors. */
#ifndef KERNEL_CXX_INIT_H
#define KERNEL_CXX_INIT_H

/* Runs .init_array in order; called once, on CPU 0, before main(). */
void cxx_run_constructors(void);

#endif /* KERNEL_CXX_INIT_H */
