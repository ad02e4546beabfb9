/*
 * trace/base/events.c: the built-in tracepoints' fields (declared in
 * include/baretrace_events.h). Their ids follow link order.
 */
#include <baretrace_events.h>

TP_DEFINE(irq, entry, TP_FIELD(U32, irq, "%u"));
TP_DEFINE(irq, exit, TP_FIELD(U32, irq, "%u"), TP_FIELD(U8, handled, "%u"));
TP_DEFINE(timer, tick, TP_FIELD(U32, cpu, "%u"), TP_FIELD(U64, count, "%lu"));
TP_DEFINE(ipi, send, TP_FIELD(U32, cpu, "%u"), TP_FIELD(U32, sgi, "%u"));
TP_DEFINE(ipi, receive, TP_FIELD(U32, sgi, "%u"));
TP_DEFINE(smp, call, TP_FIELD(U32, cpu, "%u"), TP_FIELD(PTR, fn, "%p"));
TP_DEFINE(uart, receive, TP_FIELD(U8, byte, "%#x"));
TP_DEFINE(trace, patch, TP_FIELD(U32, words, "%u"), TP_FIELD(U8, kind, "%u"));
