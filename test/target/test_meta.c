/*
 * test/target/test_meta.c: an application with many tracepoints. Their
 * schemas no longer fit one metadata frame, so the metadata set goes out
 * over several frames (docs/wire.md 2.9); before, the whole set was
 * dropped and the host could name none of the events. The KTAP test
 * fires each event once with the recorder on; test/end_of_run.py checks
 * that the host decodes all of them by name.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "ktest.h"

TP_DECLARE(schema, event_with_a_long_descriptive_name_00);
TP_DEFINE(schema, event_with_a_long_descriptive_name_00,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_01);
TP_DEFINE(schema, event_with_a_long_descriptive_name_01,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_02);
TP_DEFINE(schema, event_with_a_long_descriptive_name_02,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_03);
TP_DEFINE(schema, event_with_a_long_descriptive_name_03,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_04);
TP_DEFINE(schema, event_with_a_long_descriptive_name_04,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_05);
TP_DEFINE(schema, event_with_a_long_descriptive_name_05,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_06);
TP_DEFINE(schema, event_with_a_long_descriptive_name_06,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_07);
TP_DEFINE(schema, event_with_a_long_descriptive_name_07,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_08);
TP_DEFINE(schema, event_with_a_long_descriptive_name_08,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_09);
TP_DEFINE(schema, event_with_a_long_descriptive_name_09,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_10);
TP_DEFINE(schema, event_with_a_long_descriptive_name_10,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_11);
TP_DEFINE(schema, event_with_a_long_descriptive_name_11,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_12);
TP_DEFINE(schema, event_with_a_long_descriptive_name_12,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_13);
TP_DEFINE(schema, event_with_a_long_descriptive_name_13,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_14);
TP_DEFINE(schema, event_with_a_long_descriptive_name_14,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_15);
TP_DEFINE(schema, event_with_a_long_descriptive_name_15,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_16);
TP_DEFINE(schema, event_with_a_long_descriptive_name_16,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_17);
TP_DEFINE(schema, event_with_a_long_descriptive_name_17,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_18);
TP_DEFINE(schema, event_with_a_long_descriptive_name_18,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_19);
TP_DEFINE(schema, event_with_a_long_descriptive_name_19,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_20);
TP_DEFINE(schema, event_with_a_long_descriptive_name_20,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_21);
TP_DEFINE(schema, event_with_a_long_descriptive_name_21,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_22);
TP_DEFINE(schema, event_with_a_long_descriptive_name_22,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));
TP_DECLARE(schema, event_with_a_long_descriptive_name_23);
TP_DEFINE(schema, event_with_a_long_descriptive_name_23,
	  TP_FIELD(U32, sequence_number_of_the_sample, "%u"),
	  TP_FIELD(S32, measured_value_in_millivolts, "%d"));

static void fire_all(void)
{
	trace_event(schema, event_with_a_long_descriptive_name_00, 0, -0);
	trace_event(schema, event_with_a_long_descriptive_name_01, 1, -1);
	trace_event(schema, event_with_a_long_descriptive_name_02, 2, -2);
	trace_event(schema, event_with_a_long_descriptive_name_03, 3, -3);
	trace_event(schema, event_with_a_long_descriptive_name_04, 4, -4);
	trace_event(schema, event_with_a_long_descriptive_name_05, 5, -5);
	trace_event(schema, event_with_a_long_descriptive_name_06, 6, -6);
	trace_event(schema, event_with_a_long_descriptive_name_07, 7, -7);
	trace_event(schema, event_with_a_long_descriptive_name_08, 8, -8);
	trace_event(schema, event_with_a_long_descriptive_name_09, 9, -9);
	trace_event(schema, event_with_a_long_descriptive_name_10, 10, -10);
	trace_event(schema, event_with_a_long_descriptive_name_11, 11, -11);
	trace_event(schema, event_with_a_long_descriptive_name_12, 12, -12);
	trace_event(schema, event_with_a_long_descriptive_name_13, 13, -13);
	trace_event(schema, event_with_a_long_descriptive_name_14, 14, -14);
	trace_event(schema, event_with_a_long_descriptive_name_15, 15, -15);
	trace_event(schema, event_with_a_long_descriptive_name_16, 16, -16);
	trace_event(schema, event_with_a_long_descriptive_name_17, 17, -17);
	trace_event(schema, event_with_a_long_descriptive_name_18, 18, -18);
	trace_event(schema, event_with_a_long_descriptive_name_19, 19, -19);
	trace_event(schema, event_with_a_long_descriptive_name_20, 20, -20);
	trace_event(schema, event_with_a_long_descriptive_name_21, 21, -21);
	trace_event(schema, event_with_a_long_descriptive_name_22, 22, -22);
	trace_event(schema, event_with_a_long_descriptive_name_23, 23, -23);
}

KTEST(tp_schemas_of_many_events_reach_the_host)
{
	KT_EQ(t, tp_count() >= 24, 1);
	KT_EQ(t, tp_enable("schema:*", 1), 0);
	fire_all();
	KT_EQ(t, tp_enable("schema:*", 0), 0);
}
