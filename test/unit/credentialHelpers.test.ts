import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import {
	assertCredentialFieldsUsable,
	assertHeaderValueSafe,
	missingPluginFields,
	pluginHeaders,
	readCredentials,
	readTokenTimes,
	tokenNeedsRenewal,
} from '../../transport/auth';

const assertSafeBaseUrl = (baseUrl: string) =>
	assertCredentialFieldsUsable(readCredentials({ baseUrl }));
/** The credential data a run holds after a login: its token and the local time it arrived. */
const received = (token: string, at: number): ICredentialDataDecryptedObject => ({
	sessionToken: token,
	loginReceivedAt: at,
});

const jwt = (claims: Record<string, unknown>) =>
	['{"alg":"HS256"}', JSON.stringify(claims), 'sig']
		.map((part, i) => (i < 2 ? Buffer.from(part).toString('base64url') : part))
		.join('.');

describe('credential helpers', () => {
	it('A3: a token is renewed before its end, with a margin, and never used after it', () => {
		const now = 1_000_000_000_000;
		const token = jwt({ iat: now / 1000, exp: now / 1000 + 3600 });
		expect(readTokenTimes(token)).toEqual({ issuedAt: now, expiresAt: now + 3_600_000 });
		expect(tokenNeedsRenewal(received(token, now), now)).toBe(false);
		expect(tokenNeedsRenewal(received(token, now), now + 3_540_000 - 1)).toBe(false);
		expect(tokenNeedsRenewal(received(token, now), now + 3_540_000)).toBe(true);
		expect(tokenNeedsRenewal(received(token, now), now + 3_600_001)).toBe(true);
		expect(tokenNeedsRenewal(received('', now), now)).toBe(true);
		expect(tokenNeedsRenewal(received('opaque-token', now), now)).toBe(false);
	});

	it('A3: a short-lived token gets a proportionate margin, not a constant re-login', () => {
		const now = 1_000_000_000_000;
		const token = jwt({ iat: now / 1000, exp: now / 1000 + 4 });
		expect(tokenNeedsRenewal(received(token, now), now + 3000)).toBe(false);
		expect(tokenNeedsRenewal(received(token, now), now + 3600)).toBe(true);
	});

	it('A3: expiry is judged from when the token was received plus exp - iat, whatever the service clock says', () => {
		const now = 1_000_000_000_000;
		for (const skewSeconds of [-7200, 7200]) {
			const serverNow = now / 1000 + skewSeconds;
			const token = jwt({ iat: serverNow, exp: serverNow + 3600 });
			expect(tokenNeedsRenewal(received(token, now), now + 1000)).toBe(false);
			expect(tokenNeedsRenewal(received(token, now), now + 3_000_000)).toBe(false);
			expect(tokenNeedsRenewal(received(token, now), now + 3_600_000)).toBe(true);
		}
	});

	it('A6: https is required except for loopback hosts', () => {
		expect(() => assertSafeBaseUrl('https://api.example.com')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://127.0.0.1:8787')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://localhost:8787')).not.toThrow();
		expect(() => assertSafeBaseUrl('http://api.example.com')).toThrow(/must use https/);
		expect(() => assertSafeBaseUrl('ftp://api.example.com')).toThrow(/must use https/);
		expect(() => assertSafeBaseUrl('not a url')).toThrow(/not a valid URL/);
	});

	it('A6: a Base URL with user:pass@ is refused, and the message never repeats it', () => {
		let message = '';
		try {
			assertSafeBaseUrl('https://admin:Sup3rSecret@api.example.com');
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toMatch(/must not contain a user name or password/);
		expect(message).not.toContain('Sup3rSecret');
		expect(message).not.toContain('admin');
	});

	it('A5/A6: plugin headers are sent only when configured, and CR/LF is refused', () => {
		const base = { baseUrl: 'https://x', username: 'u', password: 'p' };
		expect(pluginHeaders(readCredentials(base))).toEqual({});
		expect(missingPluginFields(readCredentials(base))).toEqual([
			'Plugin Integration (switch it on)',
			'Plugin API Key',
			'Platform Type',
			'Shop Base URI',
		]);
		const full = readCredentials({
			...base,
			pluginIntegration: true,
			pluginApiKey: 'k',
			pluginPlatformType: 'shopify',
			pluginBaseUri: 'https://shop',
		});
		expect(pluginHeaders(full)).toEqual({
			'x-api-key': 'k',
			'x-platform-type': 'shopify',
			'x-base-uri': 'https://shop',
		});
		expect(missingPluginFields(full)).toEqual([]);
		expect(missingPluginFields({ ...full, pluginPlatformType: ' ' })).toEqual(['Platform Type']);
		expect(() =>
			assertCredentialFieldsUsable(
				readCredentials({
					...base,
					baseUrl: 'https://x.example',
					pluginIntegration: true,
					pluginApiKey: 'k\r\nX-Evil: 1',
					pluginPlatformType: 'custom',
					pluginBaseUri: 'https://s',
				}),
			),
		).toThrow(/line break/);
		expect(() => assertHeaderValueSafe('Session Token', 'abc\n')).toThrow(/line break/);
		expect(() => assertHeaderValueSafe('Shop Base URI', 'https://shöp.example')).not.toThrow();
		expect(() => assertHeaderValueSafe('Shop Base URI', 'https://店.example')).toThrow(
			/"Shop Base URI".*ISO-8859-1/,
		);
		expect(() => assertHeaderValueSafe('Plugin API Key', 'key\u2028x')).toThrow(/"Plugin API Key"/);
		// The place of a character the field cannot hold, never the character itself: the field may be a secret.
		expect(() => assertHeaderValueSafe('Plugin API Key', 'key-€-secret')).toThrow(
			/^(?!.*(€|20AC)).*; character 5 is not\)$/,
		);
	});
});
