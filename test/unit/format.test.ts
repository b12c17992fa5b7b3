import { formatFirstTen, formatMegabytes } from '../../transport/format';

/** How transport/format.ts writes lists and sizes into messages and log lines. */
describe('format', () => {
	it('a list shows its first ten, then how many more', () => {
		expect(formatFirstTen([3, 5, 8])).toBe('3, 5, 8');
		const twelve = Array.from({ length: 12 }, (_, i) => i);
		expect(formatFirstTen(twelve)).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more');
		expect(formatFirstTen(twelve.slice(0, 10))).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9');
	});

	it('sizes in MB: to a tenth from 1 MB, to a thousandth below it (never 0 MB)', () => {
		expect(formatMegabytes(256 * 1024 * 1024)).toBe('256 MB');
		expect(formatMegabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
		expect(formatMegabytes(0.004 * 1024 * 1024)).toBe('0.004 MB');
	});
});
