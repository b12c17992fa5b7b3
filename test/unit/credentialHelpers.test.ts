import {
	assertHeaderValueSafe,
	assertSafeBaseUrl,
	extractLoginToken,
	pluginHeaders,
	readCredentials,
	readTokenTimes,
	tokenNeedsRenewal,
} from '../../transport/auth';

const jwt = (claims: Record<string, unknown>) =>
	['{"alg":"HS256"}', JSON.stringify(claims), 'sig'].map((part, i) => (i < 2 ? Buffer.from(part).toString('base64url') : part)).join('.');

describe('credential helpers', () => {
	it('A1: the login token is found in the likely places of the answer', () => {
		expect(extractLoginToken({ token: 'a.b.c' })).toBe('a.b.c');
		expect(extractLoginToken({ status: 'success', data: { token: 'x' } })).toBe('x');
		expect(extractLoginToken({ access_token: 'y' })).toBe('y');
		expect(extractLoginToken({ status: 'success', data: {} })).toBeUndefined();
	});

	it('A3: a token is renewed before its exp, with a margin, and never used after it', () => {
		const now = 1_000_000_000_000;
		const token = jwt({ iat: now / 1000, exp: now / 1000 + 3600 });
		expect(readTokenTimes(token)).toEqual({ issuedAt: now, expiresAt: now + 3_600_000 });
		expect(tokenNeedsRenewal(token, now)).toBe(false);
		expect(tokenNeedsRenewal(token, now + 3_540_000 - 1)).toBe(false);
		expect(tokenNeedsRenewal(token, now + 3_540_000)).toBe(true);
		expect(tokenNeedsRenewal(token, now + 3_600_001)).toBe(true);
		expect(tokenNeedsRenewal('', now)).toBe(true);
		expect(tokenNeedsRenewal('opaque-token', now)).toBe(false);
	});

	it('A3: a short-lived token gets a proportionate margin, not a constant re-login', () => {
		const now = 1_000_000_000_000;
		const token = jwt({ iat: now / 1000, exp: now / 1000 + 4 });
		expect(tokenNeedsRenewal(token, now + 3000)).toBe(false);
		expect(tokenNeedsRenewal(token, now + 3600)).toBe(true);
	});

	it('A6: https is required except for loopback hosts', () => {
		expect(() => assertSafeBaseUrl('https://api.example.com')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://127.0.0.1:8787')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://localhost:8787')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://api.example.com')).toThrow(/must use https/);
		expect(() => assertSafeBaseUrl('ftp://api.example.com')).toThrow(/must use https/);
		expect(() => assertSafeBaseUrl('not a url')).toThrow(/not a valid URL/);
	});

	it('A5/A6: plugin headers are sent only when configured, and CR/LF is refused', () => {
		const base = { baseUrl: 'https://x', username: 'u', password: 'p' };
		expect(pluginHeaders(readCredentials(base)).missing).toEqual(['Plugin API Key', 'Platform Type', 'Shop Base URI']);
		const full = readCredentials({
			...base,
			pluginIntegration: true,
			pluginApiKey: 'k',
			pluginPlatformType: 'shopify',
			pluginBaseUri: 'https://shop',
		});
		expect(pluginHeaders(full)).toEqual({
			headers: { 'x-api-key': 'k', 'x-platform-type': 'shopify', 'x-base-uri': 'https://shop' },
			missing: [],
		});
		expect(() => pluginHeaders(readCredentials({ ...base, pluginIntegration: true, pluginApiKey: 'k\r\nX-Evil: 1', pluginPlatformType: 'custom', pluginBaseUri: 'https://s' }))).toThrow(/line break/);
		expect(() => assertHeaderValueSafe('Session Token', 'abc\n')).toThrow(/line break/);
	});
});
