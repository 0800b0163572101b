import { useEffect, useRef, useState } from 'react';
import { CircleCheckBig, Send } from 'lucide-react';
import { contactMessageSchema } from '@domain/support';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';
import { toastMutationError } from '../../../lib/mutation-errors';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useSendContactMessage } from '../api/send-contact-message';

export interface ContactFormValues {
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
}

const EMPTY: ContactFormValues = { name: '', email: '', phone: '', subject: '', message: '' };

/** The contact form and its "Message Sent!" view (docs/rules/screens-buyer.md, Account pages). */
export function ContactForm({ initialValues }: { initialValues?: Partial<ContactFormValues> }) {
  const sentHeadingRef = useRef<HTMLHeadingElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const { formRef, values, errors, setValue, handleSubmit, showServerErrors, reset } = useSchemaForm({
    schema: contactMessageSchema,
    initialValues: { ...EMPTY, ...initialValues },
    // After a first attempt, messages follow the typing so a fixed field clears at once.
    whenEdited: 'revalidate-after-submit',
  });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [focusAfterRender, setFocusAfterRender] = useState<'sent' | 'form' | null>(null);
  const send = useSendContactMessage();

  // Focus moves only after the view it targets has rendered.
  useEffect(() => {
    if (focusAfterRender === 'sent') sentHeadingRef.current?.focus();
    if (focusAfterRender === 'form') nameRef.current?.focus();
    if (focusAfterRender) setFocusAfterRender(null);
  }, [focusAfterRender]);

  const onSubmit = handleSubmit((message) =>
    send.mutate(message, {
      onSuccess: () => {
        setSentTo(message.email);
        setFocusAfterRender('sent');
      },
      onError: (error) => {
        showServerErrors(error);
        toastMutationError(error, 'Failed to send message. Please try again.', { preferServerMessage: true });
      },
    }),
  );

  const sendAnother = () => {
    reset();
    setSentTo(null);
    send.reset();
    setFocusAfterRender('form');
  };

  if (sentTo !== null) {
    return (
      <Card data-testid="card-message-sent">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center sm:p-12">
          <span className="inline-flex size-16 items-center justify-center rounded-full bg-success text-success-foreground">
            <CircleCheckBig className="size-8" aria-hidden="true" />
          </span>
          <h2 ref={sentHeadingRef} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
            Message Sent!
          </h2>
          <p className="max-w-md text-muted-foreground">
            Thank you for contacting us. We have received your message and will reply to{' '}
            <span className="font-medium text-foreground">{sentTo}</span> as soon as we can.
          </p>
          <Button variant="outline" onClick={sendAnother}>
            Send Another Message
          </Button>
        </CardContent>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Send us a message</CardTitle>
        <CardDescription>
          Questions about an order, a payout or your account? Write to us and we will get back to you by
          email.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          ref={formRef}
          noValidate
          onSubmit={onSubmit}
          aria-label="Contact support"
          className="flex flex-col gap-5"
        >
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <FormField id="contact-name" label="Name" error={errors.name}>
              {(control) => (
                <Input
                  {...control}
                  ref={nameRef}
                  name="name"
                  autoComplete="name"
                  value={values.name}
                  onChange={(event) => setValue('name', event.target.value)}
                />
              )}
            </FormField>
            <FormField id="contact-email" label="Email" error={errors.email}>
              {(control) => (
                <Input
                  {...control}
                  type="email"
                  name="email"
                  autoComplete="email"
                  value={values.email}
                  onChange={(event) => setValue('email', event.target.value)}
                />
              )}
            </FormField>
          </div>
          <FormField id="contact-phone" label="Phone" optional error={errors.phone}>
            {(control) => (
              <Input
                {...control}
                type="tel"
                name="phone"
                autoComplete="tel"
                value={values.phone}
                onChange={(event) => setValue('phone', event.target.value)}
              />
            )}
          </FormField>
          <FormField id="contact-subject" label="Subject" error={errors.subject}>
            {(control) => (
              <Input
                {...control}
                name="subject"
                value={values.subject}
                onChange={(event) => setValue('subject', event.target.value)}
              />
            )}
          </FormField>
          <FormField id="contact-message" label="Message" error={errors.message}>
            {(control) => (
              <Textarea
                {...control}
                name="message"
                rows={6}
                value={values.message}
                onChange={(event) => setValue('message', event.target.value)}
              />
            )}
          </FormField>
          <div>
            <Button type="submit" size="lg" disabled={send.isPending}>
              <Send aria-hidden="true" />
              {send.isPending ? 'Sending...' : 'Send Message'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
