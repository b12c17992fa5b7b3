import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../helpers/parameters';
import { rejectionReason, templateTitle } from '../../helpers/template';
import { apiRequest } from '../../../../transport/request';

/**
 * Each template's APPROVED check of one run, shared by the lanes: one request per template while it passes (a
 * failed check is not shared: each item then checks, and fails, on its own, with its own item index).
 */
export type ApprovalChecks = Map<string, Promise<boolean>>;

/** Template > Send's "Check State Before Sending": the template must be APPROVED (rule T2), checked once per run. */
export async function checkApprovedOnce(
	ctx: IExecuteFunctions,
	checks: ApprovalChecks,
	id: string,
	itemIndex: number,
): Promise<void> {
	// Taken before any await, so lanes that start together share the first check instead of each making one.
	const shared = checks.get(id);
	if (shared === undefined) {
		const check = assertApproved(ctx, id, itemIndex);
		checks.set(
			id,
			check.then(
				() => true,
				() => false,
			),
		);
		await check;
	} else if (!(await shared)) {
		await assertApproved(ctx, id, itemIndex);
	}
}

async function assertApproved(ctx: IExecuteFunctions, id: string, itemIndex: number): Promise<void> {
	const template = await apiRequest(ctx, 'templateGet', { pathParams: { id }, itemIndex });
	if (template.state === 'APPROVED') return;
	const state = template.state ?? 'unknown';
	const reason = state === 'REJECTED' ? rejectionReason(template) : undefined;
	// The router puts the state into the Continue On Fail error item, like the service's own 400 answer.
	throw itemError(
		ctx,
		itemIndex,
		`template ${templateTitle(template, id)} is ${state}, so it was not sent; only APPROVED templates can be sent`,
		state === 'DRAFT'
			? 'Submit it for review (Template > Submit for Review), then wait until it is APPROVED (Template > Wait for Approval).'
			: state === 'PENDING'
				? 'It is still in review. Wait until it is APPROVED (Template > Wait for Approval) before sending.'
				: state === 'REJECTED'
					? `It was rejected${reason ? `: ${reason}` : ''}. Create a corrected draft and submit it.`
					: undefined,
		{ state },
	);
}
