/* DCPI's accuracy measure (dcpi.h): weighted share of estimates within 5/10/15%. */
#include "dcpi.h"

#include <math.h>

void dcpi_accuracy_add(struct dcpi_accuracy *a, double est, double truth, double weight)
{
	static const double lim[3] = { 0.05, 0.10, 0.15 };

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
