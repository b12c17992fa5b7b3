// @ts-check
'use strict';
/**
 * Extension routes: endpoints of API areas whose paths the API document does NOT show.
 *
 * GET /api/user/profile/ and PUT /api/user/profile/ are NOT from the API document (it lists "user profile GET and
 * PUT" among the areas whose paths are not shown). The path is an example that the demo workflows and the
 * end-to-end tests use for the Other Endpoint operation and for n8n's HTTP Request node with this package's
 * credential. The node itself never names it: it reaches such areas only through a path the user types.
 *
 * Same handling as every other /api route (registered in the same scope in server.js): bearer JWT, API access,
 * per-user rate limit, faults, JSend bodies and the strict trailing-slash 404.
 *
 * GET  -> 200 {id, username, email, firstname, lastname, language, has_api_access, updated_at}: the logged-in
 *         user's public profile, never the password or the plugin key.
 * PUT  -> partial update of firstname / lastname / language; any other field (password, username, plugin key,
 *         API access...) is a 422 VALIDATION_ERROR naming it; returns the updated profile.
 */
const { success, validationError } = require('../jsend');
const { objectBody, isBlank, BLANK } = require('../validate');
const { currentUser, isoNow } = require('../context');

const PROFILE_PATH = '/api/user/profile/';
const EDITABLE = ['firstname', 'lastname', 'language'];
/** ISO 639-1 language, optionally with a region: en, fr, pt_BR, en-GB. */
const LANGUAGE = /^[a-z]{2}(?:[_-][A-Z]{2})?$/;
/** Fixed, so the seed stays deterministic. */
const SEED_TIME = '2025-01-06T09:00:00.000Z';

/**
 * @typedef {{ firstname: string | null, lastname: string | null, language: string, updated_at: string }} Profile
 */

/**
 * Profiles live beside the store's users, keyed by the user object: a reset() makes new user objects, so the
 * profiles go back to their defaults with the rest of the data.
 * @type {WeakMap<import('../context').User, Profile>}
 */
const profiles = new WeakMap();

/** @param {import('../context').User} user */
function profileOf(user) {
	let profile = profiles.get(user);
	if (!profile) {
		const local = user.username.split('@')[0] ?? '';
		profile = {
			firstname: local ? local.charAt(0).toUpperCase() + local.slice(1) : null,
			lastname: 'User',
			language: 'en',
			updated_at: SEED_TIME,
		};
		profiles.set(user, profile);
	}
	return profile;
}

/** The public view: no password, no plugin key. @param {import('../context').User} user */
function publicProfile(user) {
	const p = profileOf(user);
	return {
		id: user.id,
		username: user.username,
		email: user.username.includes('@') ? user.username : null,
		firstname: p.firstname,
		lastname: p.lastname,
		language: p.language,
		has_api_access: user.apiAccess,
		updated_at: p.updated_at,
	};
}

/**
 * @param {import('fastify').FastifyInstance} app
 * @param {import('../context').Ctx} _ctx
 */
function extensionRoutes(app, _ctx) {
	app.get(PROFILE_PATH, async (req) => success(publicProfile(currentUser(req))));

	app.put(PROFILE_PATH, async (req) => {
		const user = currentUser(req);
		const body = objectBody(req.body);
		/** @type {import('../jsend').Violation[]} */
		const violations = [];
		for (const key of Object.keys(body)) {
			if (!EDITABLE.includes(key)) {
				violations.push({ propertyPath: key, message: `This field cannot be changed here (editable: ${EDITABLE.join(', ')}).` });
			}
		}
		const present = EDITABLE.filter((f) => body[f] !== undefined);
		if (present.length === 0 && violations.length === 0) {
			violations.push({ propertyPath: '', message: `Send at least one of ${EDITABLE.join(', ')}.` });
		}
		for (const f of present) {
			const v = body[f];
			if (typeof v !== 'string') violations.push({ propertyPath: f, message: 'This value should be of type string.' });
			else if (f !== 'lastname' && isBlank(v)) violations.push({ propertyPath: f, message: BLANK });
			else if (v.length > 100) violations.push({ propertyPath: f, message: 'This value is too long (100 characters at most).' });
			else if (f === 'language' && !LANGUAGE.test(v)) {
				violations.push({ propertyPath: f, message: 'This value is not a valid language code (e.g. en, fr, pt_BR).' });
			}
		}
		if (violations.length) throw validationError(violations);
		const profile = profileOf(user);
		for (const f of present) {
			const v = String(body[f]).trim();
			if (f === 'language') profile.language = v;
			else if (f === 'firstname') profile.firstname = v;
			else profile.lastname = v === '' ? null : v;
		}
		profile.updated_at = isoNow();
		return success(publicProfile(user), 'Profile updated.');
	});
}

module.exports = { extensionRoutes, PROFILE_PATH, publicProfile };
