// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import * as navigation from '../../../lib/navigation';
import { installDomStubs, jsonResponse, mockFetch, renderWithProviders } from '../../../test-support/render';
import {
  installFakeUploadStorage,
  objectPathOfUpload,
  type FakeUploadStorage,
} from '../testing/fake-upload-storage';
import { ImageUploadButton } from './image-upload-button';

installDomStubs();

let storage: FakeUploadStorage;
beforeEach(() => {
  storage = installFakeUploadStorage();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const png = () => new File([new Uint8Array(2000)], 'me.png', { type: 'image/png' });

async function renderButton(maxNumberOfFiles?: number) {
  const onUploaded = vi.fn();
  renderWithProviders(
    <ImageUploadButton
      onUploaded={onUploaded}
      maxNumberOfFiles={maxNumberOfFiles}
      progressLabel="Uploading photo"
    >
      Upload photo
    </ImageUploadButton>,
  );
  const button = screen.getByRole('button', { name: 'Upload photo' });
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
  const input = screen.getByTestId<HTMLInputElement>('button-upload-image-input');
  const choose = (...files: File[]) => fireEvent.change(input, { target: { files } });
  return { onUploaded, button, input, choose };
}

describe('ImageUploadButton', () => {
  it('opens the file picker for images, one at a time unless told', async () => {
    const { button, input } = await renderButton();
    const click = vi.spyOn(input, 'click').mockImplementation(() => {});
    fireEvent.click(button);
    expect(click).toHaveBeenCalledTimes(1);
    expect(input.accept).toBe('image/*');
    expect(input.multiple).toBe(false);
    expect(input.hidden).toBe(true);
  });

  it('takes several files when allowed', async () => {
    const { input } = await renderButton(10);
    expect(input.multiple).toBe(true);
  });

  it('shows a progress bar with its percentage, then reports the object path', async () => {
    mockFetch(storage.uploadUrlRoute);
    storage.durationMs = 600;
    const { onUploaded, button, choose } = await renderButton();
    choose(png());

    const bar = await screen.findByRole('progressbar', { name: 'Uploading photo' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    expect(screen.getByTestId('upload-progress').textContent).toContain('50%');
    expect(button).toHaveProperty('disabled', true);

    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith(objectPathOfUpload(1), 'me.png'));
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(button).toHaveProperty('disabled', false);
  });

  it('keeps a file given before the uploader was loaded, and uploads it', async () => {
    mockFetch(storage.uploadUrlRoute);
    const onUploaded = vi.fn();
    renderWithProviders(<ImageUploadButton onUploaded={onUploaded}>Upload photo</ImageUploadButton>);
    const input = screen.getByTestId<HTMLInputElement>('button-upload-image-input');
    expect(screen.getByRole('button', { name: 'Upload photo' })).toHaveProperty('disabled', true);
    fireEvent.change(input, { target: { files: [png()] } });
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith(objectPathOfUpload(1), 'me.png'));
  });

  it('says why a file was refused, in the live region', async () => {
    const fetchMock = mockFetch(storage.uploadUrlRoute);
    const { choose } = await renderButton();
    choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect((await screen.findByRole('status')).textContent).toContain('You can only upload: image/*');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it("says 'Failed to upload file' with the server's reason when the store refuses the file", async () => {
    mockFetch(storage.uploadUrlRoute);
    storage.answer = () => ({
      status: 400,
      body: JSON.stringify({ message: 'File is not an image', code: 'bad_request', requestId: 'r' }),
    });
    const { onUploaded, choose } = await renderButton();
    choose(png());
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status.textContent).toContain('Failed to upload file'));
    expect(status.textContent).toContain('File is not an image');
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('signs in again when the session has ended (docs/rules/screens-shared.md, Uploader)', async () => {
    const assign = vi.spyOn(navigation.browserLocation, 'assign').mockImplementation(() => {});
    mockFetch(() => jsonResponse({ message: 'Unauthorized', code: 'unauthorized', requestId: 'r' }, 401));
    const { choose } = await renderButton();
    choose(png());
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeVisible();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 });
  });
});
