/**
 * Setup file of the unit project (vitest.config.ts): DOM matchers such as toBeInTheDocument,
 * toBeVisible and toHaveTextContent, and their types for TypeScript.
 */
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/dom';

// Pages are loaded on demand (src/web/app/router.tsx): the first test to open one waits for the
// module to be transformed, which on a busy machine takes longer than the default second.
configure({ asyncUtilTimeout: 5000 });
