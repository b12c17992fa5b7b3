/* eslint-disable @typescript-eslint/no-explicit-any -- the emulator's live store is read untyped */
/** Typed access to the emulator for tests (it is plain JavaScript, written from the API document alone). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sandboxModule = require('../../sandbox') as {
	startSandbox(options?: Record<string, unknown>): Promise<Sandbox>;
};

export interface SandboxRequestLog {
	method: string;
	path: string;
	url?: string;
	status: number;
	at: number;
	userId?: string | number | null;
	tokenExpired?: boolean;
	authorization?: boolean;
}

export interface Sandbox {
	url: string;
	port: number;
	close(): Promise<void>;
	// The emulator's live store; tests read it to check what the service really received.
	state: Record<string, any>;
	faults: { inject(fault: Record<string, unknown>): void; clear(): void };
	setConfig(config: Record<string, unknown>): void;
	reset(seed?: string): void;
	reviewOutcome(nameOrId: string, outcome: { reject?: string }): void;
	approveNow(id: string | number): void;
	rejectNow(id: string | number, reason: string): void;
	addUser(user: Record<string, unknown>): void;
	revokeTokens(): void;
}

export const startSandbox = (options: Record<string, unknown> = {}) =>
	sandboxModule.startSandbox({ recordRequests: true, ...options });

export const DEMO = {
	username: 'demo@shop.test',
	password: 'demo-password',
	pluginKey: 'demo-plugin-key',
};
export const NO_ACCESS = { username: 'noaccess@shop.test', password: 'noaccess-password' };
export const OTHER = {
	username: 'other@shop.test',
	password: 'other-password',
	pluginKey: 'other-plugin-key',
};

export function credentialsFor(
	sandbox: Sandbox,
	user: { username: string; password: string; pluginKey?: string } = DEMO,
	extra: Record<string, unknown> = {},
) {
	return {
		baseUrl: sandbox.url,
		username: user.username,
		password: user.password,
		pluginIntegration: !!user.pluginKey,
		pluginApiKey: user.pluginKey ?? '',
		pluginPlatformType: 'woocommerce',
		pluginBaseUri: 'https://shop.example.com',
		...extra,
	};
}
