import type { INodeType } from 'n8n-workflow';

import { productSearch } from './productSearch';
import { templateSearch } from './templateSearch';

/** Dropdowns and searchable lists, loaded from the service through the same transport as the operations. */
export const methods: INodeType['methods'] = {
	listSearch: { templateSearch, productSearch },
};
