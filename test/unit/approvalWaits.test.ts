import { nextInterval } from '../../nodes/CommerceMessaging/actions/template/waitForApproval.operation';

describe('Template > Wait for Approval: the waits between checks', () => {
	// The documented schedule (README, Operations): waits grow x1.5 from 2 s up to 60 s.
	it('T3: grow x1.5 from the Initial Interval, up to 60 s', () => {
		const waits = [2_000];
		while (waits.length < 11) waits.push(nextInterval(waits[waits.length - 1]));
		expect(waits.map(Math.round)).toEqual([
			2_000, 3_000, 4_500, 6_750, 10_125, 15_188, 22_781, 34_172, 51_258, 60_000, 60_000,
		]);
	});
});
