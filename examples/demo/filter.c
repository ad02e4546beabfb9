/*
 * examples/demo/filter.c: the three-stage smoothing filter.
 *
 *   raw -> median of 5 -> moving average of 4 -> first-order IIR -> out
 *
 * The median goes first because it removes one-sample glitches outright;
 * averaging first would only smear a glitch over four outputs. The IIR
 * adds a little more smoothing with one word of state. All integer math:
 * the IIR keeps FILTER_IIR_FRAC extra fraction bits so that small steps
 * are not lost to truncation.
 */
#include <string.h>

#include "demo.h"

#define FILTER_IIR_FRAC	 4	/* fraction bits in iir_state */
#define FILTER_IIR_SHIFT 1	/* alpha = 1/2 */

DEMO_FN void filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
}

/* Insertion sort: the window is five entries, where this beats anything
 * cleverer and never allocates. */
DEMO_FN static void filter_sort_window(milli_c *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		milli_c key = v[i];

		for (j = i; j > 0 && v[j - 1] > key; j--)
			v[j] = v[j - 1];
		v[j] = key;
	}
}

/* Until the window has filled, the median is over what has arrived. */
DEMO_FN static milli_c filter_median(struct filter *f, milli_c raw)
{
	milli_c sorted[FILTER_MEDIAN_TAPS];
	unsigned int n = f->fed < FILTER_MEDIAN_TAPS ? f->fed + 1
						     : FILTER_MEDIAN_TAPS;

	f->median_win[f->fed % FILTER_MEDIAN_TAPS] = raw;
	memcpy(sorted, f->median_win, n * sizeof(sorted[0]));
	filter_sort_window(sorted, n);
	return sorted[n / 2];
}

/* Running sum over a circular window: one add and one subtract per
 * sample instead of re-adding the whole window. */
DEMO_FN static milli_c filter_moving_avg(struct filter *f, milli_c v)
{
	unsigned int slot = f->fed % FILTER_AVG_TAPS;
	unsigned int n = f->fed < FILTER_AVG_TAPS ? f->fed + 1
						  : FILTER_AVG_TAPS;

	f->avg_sum += v - (f->fed < FILTER_AVG_TAPS ? 0 : f->avg_win[slot]);
	f->avg_win[slot] = v;
	return (milli_c)(f->avg_sum / (int64_t)n);
}

/* y += (x - y) * alpha, seeded with the first input so it does not
 * start by climbing up from zero degrees. */
DEMO_FN static milli_c filter_iir(struct filter *f, milli_c v)
{
	int32_t x = v * (1 << FILTER_IIR_FRAC);

	if (f->fed == 0)
		f->iir_state = x;
	else
		f->iir_state += (x - f->iir_state) / (1 << FILTER_IIR_SHIFT);
	return f->iir_state / (1 << FILTER_IIR_FRAC);
}

DEMO_FN milli_c filter_apply(struct filter *f, milli_c raw)
{
	milli_c v = filter_median(f, raw);

	v = filter_moving_avg(f, v);
	v = filter_iir(f, v);
	f->fed++;
	return v;
}
