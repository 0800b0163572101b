// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
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

describe('My Deliveries (docs/rules/screens-work.md, Driver dashboard)', () => {
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

  it('hands an assigned order back after asking, and leaves it out of My Deliveries', async () => {
    let handedBack = false;
    const calls: string[] = [];
    mockFetch((url, init) => {
      if (url === `/api/orders/${underWay.id}/hand-back` && init?.method === 'POST') {
        calls.push(url);
        handedBack = true;
        return new Response(null, { status: 204 });
      }
      // Once handed back, the order is no longer the driver's.
      if (url === '/api/orders?as=driver') return jsonResponse(handedBack ? [] : [underWay]);
      return undefined;
    });
    renderPanel();
    const user = userEvent.setup();

    await user.click(await screen.findByTestId(`button-hand-back-${underWay.id}`));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Hand this order back?');
    expect(dialog).toHaveTextContent('It will be offered to other drivers.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);

    await user.click(screen.getByTestId(`button-hand-back-${underWay.id}`));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Hand this order back?' })).getByRole('button', {
        name: 'Hand Back',
      }),
    );
    expect(await screen.findByTestId('text-no-deliveries')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([`/api/orders/${underWay.id}/hand-back`]);
    expect(await screen.findByText('Order handed back')).toBeVisible();
    expect(screen.getByText('ORD-ONWAY2 is offered to other drivers.')).toBeVisible();
  });

  it('offers no Hand Back once the delivery started', async () => {
    const started = { ...underWay, status: 'in-transit' as const };
    mockFetch((url) => (url === '/api/orders?as=driver' ? jsonResponse([started]) : undefined));
    renderPanel();
    expect(await screen.findByRole('button', { name: 'Mark Delivered' })).toBeVisible();
    expect(screen.queryByTestId(`button-hand-back-${underWay.id}`)).toBeNull();
  });

  it('says "Failed to hand back order" with the reason when the server refuses', async () => {
    mockFetch((url, init) => {
      if (url.endsWith('/hand-back') && init?.method === 'POST')
        return jsonResponse(
          {
            message: 'You started this delivery: it can no longer be handed back.',
            code: 'conflict',
            requestId: 'r',
          },
          409,
        );
      if (url === '/api/orders?as=driver') return jsonResponse([underWay]);
      return undefined;
    });
    renderPanel();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`button-hand-back-${underWay.id}`));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Hand this order back?' })).getByRole('button', {
        name: 'Hand Back',
      }),
    );
    expect(
      await screen.findByText(
        'Failed to hand back order: You started this delivery: it can no longer be handed back.',
      ),
    ).toBeVisible();
  });
});
