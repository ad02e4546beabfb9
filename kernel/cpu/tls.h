/* kernel/cpu/tls.h: each CPU's copy of the application's _Thread_local data. */
#ifndef KERNEL_TLS_H
#define KERNEL_TLS_H

/* Fills this CPU's TLS block from the image and points TPIDR_EL0 at it;
 * TPIDRRO_EL0 = 0. Once per CPU as it starts, MMU on, TPIDR_EL1 set. */
void tls_init_cpu(void);

#endif /* KERNEL_TLS_H */
