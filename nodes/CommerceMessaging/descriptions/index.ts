/**
 * The parameter descriptions more than one operation (or both nodes) show, each written once: fields, locators and
 * options. The logic that reads them lives in helpers/ (parameters, batching, deduplication, template).
 */
export { contactIdField, currencyField, customFieldsOption, phoneField, requestOptions, returnAllOrLimit } from './fields';
export { productLocator, templateLocator } from './locators';
export { batchingOption, deduplicationOptions } from './options';
