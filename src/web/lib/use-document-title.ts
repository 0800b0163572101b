import { useEffect } from 'react';
import { COMPANY } from '@domain/company';

/** Names the browser tab after the page, so screen-reader users hear where a navigation landed. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${COMPANY.name}` : `${COMPANY.name} · Fast & Reliable Delivery`;
  }, [title]);
}
