/* SPDX-License-Identifier: BSD-2-Clause */
/* Code for the fuzzing harnesses' fixed ELFs and ELF seeds: a switch gcc compiles to a jump
 * table, a loop around it (its table base hoisted), and a loop that never ends. */
volatile int jt_sink;

__attribute__((noinline)) int jt_switch(int op, int x)
{
	switch (op) {
	case 0: return x + 11;
	case 1: return x * 13;
	case 2: return x ^ 0x55;
	case 3: return x - 7;
	case 4: return x << 3;
	case 5: return x / 9;
	case 6: return x % 17;
	case 7: return ~x;
	case 8: return x | 0x100;
	default: return 0;
	}
}

__attribute__((noinline)) int jt_loop(const unsigned char *ops, int n)
{
	int acc = 1;

	for (int i = 0; i < n; i++) {
		switch (ops[i]) {
		case 0: acc += 3; break;
		case 1: acc *= 5; break;
		case 2: acc ^= i; break;
		case 3: acc -= ops[i + 1]; break;
		case 4: acc <<= 1; break;
		case 5: acc = acc / 3 + 1; break;
		case 6: jt_sink = acc; break;
		default: acc++; break;
		}
	}
	return acc;
}

__attribute__((noinline, noreturn)) void jt_idle(void)
{
	for (;;)
		jt_sink++;
}
