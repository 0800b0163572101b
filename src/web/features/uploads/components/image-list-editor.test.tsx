// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { ImageListEditor } from './image-list-editor';

/** The uploader itself is tested in image-upload-button.test.tsx; here only what it reports matters. */
const uploads = vi.hoisted(() => ({
  onUploaded: undefined as ((path: string, name: string) => void) | undefined,
}));
vi.mock('../use-image-upload', () => ({
  useImageUpload: (options: { onUploaded: (path: string, name: string) => void }) => {
    uploads.onUploaded = options.onUploaded;
    return {
      isUploading: false,
      isReady: true,
      progress: 0,
      notices: [],
      openFilePicker: () => {},
      addFiles: () => {},
      dismissNotice: () => {},
      inputProps: { type: 'file', hidden: true },
    };
  },
}));

afterEach(cleanup);

function finish(path: string) {
  act(() => uploads.onUploaded?.(path, `${path}.png`));
}

describe('the image list editor', () => {
  it('keeps every upload when one finishes while the list on screen is still an older one', () => {
    const onChange = vi.fn();
    const editor = (value: string[]) => (
      <ImageListEditor value={value} onChange={onChange} max={10} subject="Oak Shelf" />
    );
    const { rerender } = render(editor([]));
    finish('a');
    finish('b');
    expect(onChange).toHaveBeenLastCalledWith(['a', 'b']);
    // The screen catches up one change late, and the third file finishes then.
    rerender(editor(['a']));
    finish('c');
    expect(onChange).toHaveBeenLastCalledWith(['a', 'b', 'c']);
  });

  it('does not bring back an image removed after it was shown, and stops at the maximum', () => {
    const onChange = vi.fn();
    const editor = (value: string[], max = 10) => (
      <ImageListEditor value={value} onChange={onChange} max={max} subject="Oak Shelf" />
    );
    const { rerender } = render(editor([]));
    finish('a');
    rerender(editor(['a']));
    rerender(editor([]));
    finish('b');
    expect(onChange).toHaveBeenLastCalledWith(['b']);
    rerender(editor(['b'], 1));
    onChange.mockClear();
    finish('c');
    expect(onChange).not.toHaveBeenCalled();
  });
});
