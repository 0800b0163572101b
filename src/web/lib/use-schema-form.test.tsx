// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { contactMessageSchema, type ContactMessage } from '@domain/support';
import { FormField } from '../components/ui/form-field';
import { ApiError } from './api-client';
import { useSchemaForm, type WhenEdited } from './use-schema-form';

afterEach(cleanup);

const EMPTY = { name: '', email: '', phone: '', subject: '', message: '' };
const VALID = {
  name: '  Ada Lovelace ',
  email: 'ada@example.com',
  phone: '',
  subject: 'Delivery question',
  message: 'Do you deliver on Sundays?',
};
const FIELDS = [
  ['name', 'Name'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['subject', 'Subject'],
  ['message', 'Message'],
] as const;

/** A form of the contact message's fields, checked by the shared schema. */
function ContactLikeForm({
  onValid = () => {},
  save,
  whenEdited,
  check,
}: {
  onValid?: (data: ContactMessage) => void;
  save?: () => Promise<unknown>;
  whenEdited?: WhenEdited;
  check?: (values: typeof EMPTY) => Record<string, string>;
}) {
  const form = useSchemaForm({
    schema: contactMessageSchema,
    initialValues: EMPTY,
    whenEdited,
    check,
  });
  const submit = form.handleSubmit((data) => {
    onValid(data);
    save?.().catch((error: unknown) => form.showServerErrors(error));
  });
  return (
    <form ref={form.formRef} noValidate onSubmit={submit} aria-label="Contact">
      {FIELDS.map(([name, label]) => (
        <FormField key={name} id={`field-${name}`} label={label} error={form.errors[name]}>
          {(control) => (
            <input
              {...control}
              value={form.values[name]}
              onChange={(event) => form.setValue(name, event.target.value)}
            />
          )}
        </FormField>
      ))}
      <button type="submit">Send</button>
      <button type="button" onClick={() => form.reset()}>
        Start again
      </button>
    </form>
  );
}

function fill(values: Partial<typeof EMPTY>) {
  for (const [name, value] of Object.entries(values)) {
    const label = FIELDS.find(([field]) => field === name)?.[1] ?? name;
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }));

describe('useSchemaForm', () => {
  it('shows nothing while typing, then each field its own message on submit, and sends nothing', () => {
    const onValid = vi.fn();
    render(<ContactLikeForm onValid={onValid} />);
    fill({ name: 'A', email: 'nope' });
    expect(screen.queryByText('Name must be at least 2 characters')).toBeNull();

    send();
    expect(screen.getByText('Name must be at least 2 characters')).toBeVisible();
    expect(screen.getByText('Invalid email address')).toBeVisible();
    expect(screen.getByText('Subject must be at least 3 characters')).toBeVisible();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-describedby', 'field-name-error');
    expect(screen.getByLabelText('Phone')).not.toHaveAttribute('aria-invalid');
    expect(onValid).not.toHaveBeenCalled();
  });

  it('moves focus to the first invalid field on the page, whichever fields are wrong', async () => {
    render(<ContactLikeForm />);
    send();
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());

    fill({ name: 'Ada', email: 'ada@example.com' });
    send();
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveFocus());
  });

  it('hands the parsed body to the submit and clears the messages', () => {
    const onValid = vi.fn();
    render(<ContactLikeForm onValid={onValid} />);
    send();
    expect(screen.getByText('Invalid email address')).toBeVisible();

    fill(VALID);
    send();
    expect(onValid).toHaveBeenCalledWith({ ...VALID, name: 'Ada Lovelace' });
    expect(screen.queryByText('Invalid email address')).toBeNull();
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it("shows the server's field messages beside their fields and focuses the first", async () => {
    const refused = new ApiError(
      400,
      'Bad Request',
      JSON.stringify({
        message: 'Invalid input',
        code: 'bad_request',
        requestId: 'r1',
        fields: { subject: 'Subject must be on one line', email: 'This address cannot receive mail' },
      }),
    );
    render(<ContactLikeForm save={() => Promise.reject(refused)} />);
    fill(VALID);
    send();
    expect(await screen.findByText('This address cannot receive mail')).toBeVisible();
    expect(screen.getByText('Subject must be on one line')).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-describedby', 'field-email-error');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
  });

  it('shows no field message for a failure that names no field', async () => {
    let shown: boolean | undefined;
    function Probe() {
      const form = useSchemaForm({ schema: contactMessageSchema, initialValues: EMPTY });
      return (
        <button
          type="button"
          onClick={() => {
            shown = form.showServerErrors(new ApiError(502, 'Bad Gateway', ''));
          }}
        >
          Fail {Object.keys(form.errors).length}
        </button>
      );
    }
    render(<Probe />);
    fireEvent.click(screen.getByRole('button'));
    expect(shown).toBe(false);
    expect(screen.getByRole('button')).toHaveTextContent('Fail 0');
  });

  it('goes back to the first values with no messages on reset', () => {
    render(<ContactLikeForm />);
    fill({ name: 'Ada', email: 'nope' });
    send();
    expect(screen.getByText('Invalid email address')).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.queryByText('Invalid email address')).toBeNull();
  });

  it('keeps the messages while editing, by default', () => {
    render(<ContactLikeForm />);
    send();
    fill({ name: 'Ada Lovelace' });
    expect(screen.getByText('Name must be at least 2 characters')).toBeVisible();
  });

  it('clears only the edited field’s message with clear-field-error', () => {
    render(<ContactLikeForm whenEdited="clear-field-error" />);
    send();
    fill({ name: 'A' });
    expect(screen.queryByText('Name must be at least 2 characters')).toBeNull();
    expect(screen.getByText('Invalid email address')).toBeVisible();
  });

  it('checks every edit after a first submit with revalidate-after-submit, and none before', () => {
    render(<ContactLikeForm whenEdited="revalidate-after-submit" />);
    fill({ name: 'A' });
    expect(screen.queryByText('Name must be at least 2 characters')).toBeNull();

    send();
    fill({ name: 'Ada' });
    expect(screen.queryByText('Name must be at least 2 characters')).toBeNull();
    expect(screen.getByText('Invalid email address')).toBeVisible();
    fill({ name: 'A' });
    expect(screen.getByText('Name must be at least 2 characters')).toBeVisible();

    fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
    fill({ name: 'A' });
    expect(screen.queryByText('Name must be at least 2 characters')).toBeNull();
  });

  it('adds the messages of a rule between fields to the schema’s, and refuses the submit', async () => {
    const onValid = vi.fn();
    const sameSubject = (values: typeof EMPTY): Record<string, string> =>
      values.message.startsWith(values.subject) ? {} : { message: 'Start with the subject' };
    render(<ContactLikeForm onValid={onValid} check={sameSubject} />);
    fill({ ...VALID, email: 'nope' });
    send();
    expect(screen.getByText('Invalid email address')).toBeVisible();
    expect(screen.getByText('Start with the subject')).toBeVisible();

    fill({ email: 'ada@example.com' });
    send();
    expect(onValid).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveFocus());

    fill({ message: 'Delivery question: do you deliver on Sundays?' });
    send();
    expect(onValid).toHaveBeenCalledTimes(1);
  });
});
