/* Console-heavy work on every CPU: each CPU spins, then prints a long line, LINES times,
 * so the drains' frames and every CPU's console text contend for the UART all the time,
 * and a CPU's own console output often holds off its drain (with small tables, samples
 * are then lost). Every line is "smp_chatty: cpu K line J <pattern> end" with the same
 * 124-character pattern, so a line broken by another CPU's text or by a frame shows. main
 * returns 0 when every CPU printed all its lines. Portable: only <bmrt.h>. */
#include <bmrt.h>

#define MAXCPU 8
#define LINES 24
#define SPIN 100000u

static const char pattern[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba9876543210";
static unsigned printed[MAXCPU];

__attribute__((noinline)) static uint64_t spin(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void chat(void *arg)
{
	unsigned k = bm_cpu_id();
	uint64_t x = k + 1;

	(void)arg;
	for (unsigned j = 0; j < LINES; j++) {
		x = spin(x, SPIN);
		bm_printf("smp_chatty: cpu %u line %u %s end\n", k, j, pattern);
		__atomic_add_fetch(&printed[k], 1, __ATOMIC_RELEASE);
	}
}

int main(void)
{
	unsigned n = bm_ncpus(), bad = 0;

	if (n > MAXCPU)
		n = MAXCPU;
	for (unsigned k = 1; k < n; k++)
		bad |= bm_run_on(k, chat, 0) != 0;
	chat(0);
	for (unsigned k = 1; k < n; k++)
		bm_wait(k);
	for (unsigned k = 0; k < n; k++)
		bad |= __atomic_load_n(&printed[k], __ATOMIC_ACQUIRE) != LINES;
	bm_printf("smp_chatty: %u cpus, %s\n", n, bad ? "FAILED" : "ok");
	return (int)bad;
}
