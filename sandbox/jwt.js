// @ts-check
'use strict';
/** Minimal HS256 JWT (node:crypto HMAC-SHA256, base64url). */
const crypto = require('node:crypto');

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * @param {Record<string, unknown>} payload
 * @param {Buffer} secret
 */
function signJwt(payload, secret) {
	const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
	const sig = crypto.createHmac('sha256', secret).update(`${HEADER}.${body}`).digest('base64url');
	return `${HEADER}.${body}.${sig}`;
}

/**
 * Checks structure, algorithm and signature (not expiry).
 * @param {string} token
 * @param {Buffer} secret
 * @returns {Record<string, any> | null} the payload, or null when the token is not ours or is malformed
 */
function verifyJwt(token, secret) {
	const parts = token.split('.');
	if (parts.length !== 3) return null;
	const [h, b, s] = parts;
	const expected = crypto.createHmac('sha256', secret).update(`${h}.${b}`).digest();
	const given = Buffer.from(s, 'base64url');
	if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
	try {
		const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
		if (header.alg !== 'HS256') return null;
		const payload = JSON.parse(Buffer.from(b, 'base64url').toString('utf8'));
		return typeof payload === 'object' && payload !== null ? payload : null;
	} catch {
		return null;
	}
}

/** @param {string} token @returns {Record<string, any>} the payload, unverified (for tests) */
function decodeJwt(token) {
	return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

module.exports = { signJwt, verifyJwt, decodeJwt };
