/* SPDX-License-Identifier: BSD-2-Clause */
/* The runtime's IRQ path, per CPU, and what console output tells it.
 *
 * bmrt_irq (vectors.S, IRQs masked; the interrupted registers from its frame): the sampler acknowledges, handles and EOIs the
 * interrupt (the runtime's SGI goes to bmrt_sgi). Then, in the outermost interrupt only
 * and only if the interrupted code is not in console output, the sampler's interrupt-exit
 * drain runs (it unmasks IRQs; the interrupts nested in it do neither step), and if this
 * CPU was told to stop, it parks. Interrupted console output may hold the UART lock, so
 * the drain would wait for its own CPU: it stays pending instead, and bmrt_console_end()
 * drains and parks in the interrupt's place once the output is done. So a CPU parks only
 * where it is in no drain and holds no lock, and its state can then be flushed by another
 * CPU. */
#include "rt.h"

void bmrt_irq(const uint64_t *frame)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];
	const struct bmprof_regs r = { .pc = frame[21], .fp = frame[0], .lr = frame[1],
				       .frame = frame };

	c->irq_depth++;
	bmprof_a64_irq_regs(&r);
	if (c->irq_depth == 1 && !c->out_busy) {
		bmprof_a64_irq_exit();
		if (c->stopped)
			bmrt_park();
	}
	c->irq_depth--;
}

int bmrt_console_begin(void)
{
	bmrt_cpus[bmrt_cpu()].out_busy++;
	return uart_lock();
}

void bmrt_console_end(int taken)
{
	struct bmrt_cpu *c = &bmrt_cpus[bmrt_cpu()];

	uart_unlock(taken);
	if (--c->out_busy || c->irq_depth)
		return;
	c->out_busy++;
	bmprof_a64_poll();
	c->out_busy--;
	if (c->stopped)
		bmrt_park();
}
