/*
 * examples/demo/fsm.c: the instrument's state machine, driven by the
 * filtered temperature.
 *
 *   idle --(>30 C)--> warming --(>55 C, 3 samples in)--> measuring
 *    ^ ^                  |                                  |    |
 *    | +-----(<28 C)------+                          (>80 C) |    | (<55 C)
 *    |                                                       v    |
 *    +--(<30 C)-- cooldown <--(<70 C)-- alarm <--------------+    |
 *                  ^  |                   ^                       |
 *                  |  +------(>80 C)------+                       |
 *                  +----------------------------------------------+
 *
 * Thresholds have gaps between the way in and the way out (30/28,
 * 80/70) so noise around one level cannot make the machine chatter.
 * One handler per state decides the next state (measuring also sums
 * its readings for the mean); fsm_enter() does the bookkeeping of a
 * change, so no handler can forget to count one.
 */
#include "demo.h"

#define FSM_WARM_ON	30000
#define FSM_WARM_OFF	28000
#define FSM_STABLE	55000
#define FSM_STABLE_DWELL 3
#define FSM_ALARM_ON	80000
#define FSM_ALARM_OFF	70000
#define FSM_COLD	30000

DEMO_FN void fsm_init(struct fsm *m)
{
	*m = (struct fsm){ .state = FSM_IDLE, .visited = 1u << FSM_IDLE };
}

DEMO_FN static void fsm_enter(struct fsm *m, enum fsm_state next)
{
	if (next == m->state) {
		m->dwell++;
		return;
	}
	if (next == FSM_ALARM)
		m->alarms++;
	m->state = next;
	m->dwell = 0;
	m->transitions++;
	m->visited |= 1u << next;
}

DEMO_FN static enum fsm_state fsm_on_idle(struct fsm *m, milli_c v)
{
	(void)m;
	return v > FSM_WARM_ON ? FSM_WARMING : FSM_IDLE;
}

DEMO_FN static enum fsm_state fsm_on_warming(struct fsm *m, milli_c v)
{
	if (v < FSM_WARM_OFF)
		return FSM_IDLE;
	if (v > FSM_STABLE && m->dwell >= FSM_STABLE_DWELL)
		return FSM_MEASURING;
	return FSM_WARMING;
}

DEMO_FN static enum fsm_state fsm_on_measuring(struct fsm *m, milli_c v)
{
	if (v > FSM_ALARM_ON)
		return FSM_ALARM;
	if (v < FSM_STABLE) {
		/* Drifted out of the measuring band without an alarm. */
		return FSM_COOLDOWN;
	}
	m->measure_sum += v;
	m->measure_count++;
	return FSM_MEASURING;
}

DEMO_FN static enum fsm_state fsm_on_alarm(struct fsm *m, milli_c v)
{
	(void)m;
	return v < FSM_ALARM_OFF ? FSM_COOLDOWN : FSM_ALARM;
}

DEMO_FN static enum fsm_state fsm_on_cooldown(struct fsm *m, milli_c v)
{
	(void)m;
	if (v > FSM_ALARM_ON)
		return FSM_ALARM;
	return v < FSM_COLD ? FSM_IDLE : FSM_COOLDOWN;
}

/* Feed one filtered reading; returns the state after it. */
DEMO_FN enum fsm_state fsm_step(struct fsm *m, milli_c value)
{
	enum fsm_state next;

	switch (m->state) {
	case FSM_IDLE:      next = fsm_on_idle(m, value); break;
	case FSM_WARMING:   next = fsm_on_warming(m, value); break;
	case FSM_MEASURING: next = fsm_on_measuring(m, value); break;
	case FSM_ALARM:     next = fsm_on_alarm(m, value); break;
	case FSM_COOLDOWN:  next = fsm_on_cooldown(m, value); break;
	default:	    next = FSM_ALARM; break;	/* corrupt: be safe */
	}
	fsm_enter(m, next);
	return m->state;
}

DEMO_FN const char *fsm_state_name(enum fsm_state s)
{
	static const char *const names[FSM_NSTATES] = {
		[FSM_IDLE] = "idle",	     [FSM_WARMING] = "warming",
		[FSM_MEASURING] = "measuring", [FSM_ALARM] = "alarm",
		[FSM_COOLDOWN] = "cooldown",
	};

	return (unsigned int)s < FSM_NSTATES ? names[s] : "?";
}
