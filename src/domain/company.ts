/**
 * The company's details, in a module without zod: the header and the tab title take them on the
 * first load without building the support schemas (docs/decisions/0014-first-load.md).
 */

/** The company details shown on the support page (docs/rules/screens-buyer.md, Account pages). */
export const COMPANY = {
  name: 'Local Delivery Marketplace',
  mailingAddress: ['100 Main Street, Suite 200', 'Springfield, IL 62701', 'United States'],
  phone: '(217) 555-0142',
  email: 'support@localdelivery.example',
  website: 'https://localdelivery.example',
  hours: 'Monday to Friday, 8:00 AM to 6:00 PM Central',
} as const;
