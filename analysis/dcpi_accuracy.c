/* SPDX-License-Identifier: BSD-2-Clause */
/* DCPI's accuracy measure (dcpi.h): weighted share of estimates within 5/10/15%. */
#include "dcpi.h"

#include <math.h>

static const double lim[3] = { 0.05, 0.10, 0.15 };

void dcpi_accuracy_add(struct dcpi_accuracy *a, double est, double truth, double weight)
{
	a->n++;
	a->weight += weight;
	if (est < 0 || truth < 0)
		return;
	double err = truth > 0 ? fabs(est - truth) / truth : (est == 0 ? 0 : INFINITY);

	for (int k = 0; k < 3; k++)
		if (err <= lim[k] + 1e-12)
			a->within[k] += weight;
}

double dcpi_accuracy_share(const struct dcpi_accuracy *a, unsigned k)
{
	if (k > 2 || !(a->weight > 0))
		return 0;
	return a->within[k] / a->weight;
}

void dcpi_accuracy_add_noise(struct dcpi_accuracy *a, double basis, double weight)
{
	for (int k = 0; k < 3; k++)
		a->floor[k] += weight * dcpi_poisson_within(basis, lim[k]);
}

double dcpi_accuracy_floor(const struct dcpi_accuracy *a, unsigned k)
{
	if (k > 2 || !(a->weight > 0))
		return 0;
	return a->floor[k] / a->weight;
}

double dcpi_poisson_within(double lambda, double p)
{
	if (!(lambda > 0) || p < 0)
		return 0;
	/* the integers in [lambda (1 - p), lambda (1 + p)] (with a little slack for rounding) */
	double lo = ceil(lambda * (1 - p) - 1e-9), hi = floor(lambda * (1 + p) + 1e-9);

	if (lo < 0)
		lo = 0;
	if (hi < lo)
		return 0;
	if (lambda > 1e6) {
		double s = sqrt(lambda);
		return 0.5 * (erfc((lo - 0.5 - lambda) / s / M_SQRT2) -
			      erfc((hi + 0.5 - lambda) / s / M_SQRT2));
	}
	double sum = 0, ll = log(lambda);

	for (double k = lo; k <= hi; k++)
		sum += exp(k * ll - lambda - lgamma(k + 1));
	return sum > 1 ? 1 : sum;
}
