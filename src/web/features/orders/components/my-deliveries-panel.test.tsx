// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import { asDriverSeesIt, DRIVER_ID, makeOrder } from '../testing/order-fixtures';
import type { PhotoUploader } from './delivery-photo-dialog';
import { MyDeliveriesPanel } from './my-deliveries-panel';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

const noUploader: PhotoUploader = () => null;
const delivered = asDriverSeesIt(
  makeOrder({
    id: '10000000-0000-4000-8000-000000000011',
    orderNumber: 'ORD-DONE01',
    status: 'delivered',
    driverId: DRIVER_ID,
  }),
);
const underWay = asDriverSeesIt(
  makeOrder({
    id: '10000000-0000-4000-8000-000000000012',
    orderNumber: 'ORD-ONWAY2',
    status: 'assigned',
    driverId: DRIVER_ID,
  }),
);

function renderPanel(onChoose = vi.fn()) {
  renderWithProviders(
    <MyDeliveriesPanel
      driverId={DRIVER_ID}
      chosenId={null}
      onChoose={onChoose}
      onDelivered={() => {}}
      uploader={noUploader}
    />,
  );
  return onChoose;
}

describe('My Deliveries (docs/product-rules.md, Driver dashboard)', () => {
  it('lists the deliveries under way first and opens the first with its next step', async () => {
    // The newest first from the server; the one under way is older.
    mockFetch((url) => (url === '/api/orders?as=driver' ? jsonResponse([delivered, underWay]) : undefined));
    const onChoose = renderPanel();
    const user = userEvent.setup();

    const list = await screen.findByRole('region', { name: 'Your deliveries' });
    const cards = within(list).getAllByRole('button');
    expect(cards.map((card) => within(card).getByText(/^ORD-/).textContent)).toEqual([
      'ORD-ONWAY2',
      'ORD-DONE01',
    ]);
    expect(cards[0]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Start Delivery' })).toBeVisible();

    await user.click(within(list).getByRole('button', { name: /ORD-DONE01/ }));
    expect(onChoose).toHaveBeenCalledWith(delivered.id);
  });

  it('says "Failed to fetch orders" and reads the list again on Try Again', async () => {
    let answer = jsonResponse({ message: 'Boom', code: 'internal', requestId: 'r' }, 500);
    mockFetch((url) => (url === '/api/orders?as=driver' ? answer : undefined));
    renderPanel();
    const user = userEvent.setup();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch orders');
    answer = jsonResponse([]);
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByText('No deliveries yet. Accept an order from Available Orders to start.'),
    ).toBeVisible();
  });
});
