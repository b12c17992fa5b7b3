'use strict';
/** Medians and spreads of repeated measurements. */

const numbers = (values) => values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);

function median(values) {
	const sorted = numbers(values);
	if (!sorted.length) return null;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** (max - min) / median: how far apart the repetitions were (0.1 = 10 %). */
function spread(values) {
	const sorted = numbers(values);
	if (sorted.length < 2) return null;
	const m = median(sorted);
	return m ? (sorted[sorted.length - 1] - sorted[0]) / m : null;
}

const max = (values) => {
	const sorted = numbers(values);
	return sorted.length ? sorted[sorted.length - 1] : null;
};

const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? a / b : null);

module.exports = { median, spread, max, ratio };
