import type { INodeProperties } from 'n8n-workflow';

import { requestOptions } from '../../nodes/CommerceMessaging/descriptions/fields';
import { DEFAULT_RUN_SETTINGS, runSettings } from '../../transport/settings';

/**
 * The defaults a user sees in Request Options are the ones the transport applies when the option is left closed:
 * n8n's lint wants literal defaults in the panel, so the two are written apart and this keeps them equal.
 */
describe('Request Options: the panel and the transport agree', () => {
	const shown = Object.fromEntries((requestOptions.options as INodeProperties[]).map((option) => [option.name, option.default]));

	it('every option the panel shows at its default gives the transport\'s default settings', () => {
		expect(Object.keys(shown).sort()).toEqual(['concurrency', 'maxAttempts', 'maxRecords', 'maxRetryWaitSeconds', 'timeoutSeconds']);
		expect(runSettings(shown)).toEqual(DEFAULT_RUN_SETTINGS);
	});
});
