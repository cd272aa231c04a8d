/**
 * One fake secret of each kind the redactor knows, shaped like the real thing (none is a live
 * credential). Shared by the redactor's table test and the end-to-end test that plants them in a
 * transcript and greps every written file.
 */
export const PLANTED: readonly { kind: string; text: string; secret: string }[] = [
  { kind: 'openai-key', text: 'export OPENAI_KEY_VALUE sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78', secret: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78' },
  { kind: 'openai-key', text: 'client = OpenAI(sk-Zy98Xw76Vu54Ts32Rq10PoNmLk)', secret: 'sk-Zy98Xw76Vu54Ts32Rq10PoNmLk' },
  { kind: 'anthropic-key', text: 'use sk-ant-api03-Qw12Er34Ty56Ui78Op90As12Df34Gh56 here', secret: 'sk-ant-api03-Qw12Er34Ty56Ui78Op90As12Df34Gh56' },
  {
    kind: 'google-api-key',
    text: 'curl "https://example.test/v1/models" -H AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
    secret: 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
  },
  {
    kind: 'github-token',
    text: 'git clone https://x:ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8@github.com/o/r',
    secret: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  },
  {
    kind: 'github-token',
    text: 'token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    secret: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
  },
  {
    kind: 'slack-token',
    text: 'SLACK xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
    secret: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  },
  { kind: 'stripe-key', text: 'stripe.api_version; charge with sk_live_51HqLyjWDarjtT1zdp7dcXYZ', secret: 'sk_live_51HqLyjWDarjtT1zdp7dcXYZ' },
  { kind: 'aws-access-key', text: 'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE', secret: 'AKIAIOSFODNN7EXAMPLE' },
  { kind: 'secret-assignment', text: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { kind: 'secret-assignment', text: '{"db_password": "hunter2-Correct-Horse"}', secret: 'hunter2-Correct-Horse' },
  { kind: 'bearer-token', text: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0zz"', secret: '9f8e7d6c5b4a39281706f5e4d3c2b1a0zz' },
  { kind: 'basic-credentials', text: 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1lMTIz', secret: 'YWxhZGRpbjpvcGVuc2VzYW1lMTIz' },
  { kind: 'url-credentials', text: 'DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db.internal:5432/app', secret: 'S3cr3tPassw0rd' },
  {
    kind: 'jwt',
    text: 'cookie session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    secret: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  },
  { kind: 'query-secret', text: 'GET https://maps.example.test/api?q=x&token=tk7Hq2Lm9Zx4Rb', secret: 'tk7Hq2Lm9Zx4Rb' },
  {
    kind: 'private-key',
    text: 'cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7Vx1kq3Lm2Pq9Rt\nZx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9\n-----END RSA PRIVATE KEY-----\ndone',
    secret: 'MIIEowIBAAKCAQEA7Vx1kq3Lm2Pq9Rt',
  },
  { kind: 'high-entropy', text: 'the deploy secret is Qm9vYmFyQmF6UXV4N0x5ZG5kMzJ4a2Jx7Tz', secret: 'Qm9vYmFyQmF6UXV4N0x5ZG5kMzJ4a2Jx7Tz' },
  { kind: 'gitlab-token', text: 'git push https://oauth2:glpat-Xy12Ab34Cd56Ef78Gh90@gitlab.example.test/g/p', secret: 'glpat-Xy12Ab34Cd56Ef78Gh90' },
  {
    kind: 'slack-webhook',
    text: 'curl -X POST https://hooks.slack.com/services/T0FAKE0001/B0FAKE0002/FakeWebhookSecret0123abcd -d @msg.json',
    secret: 'T0FAKE0001/B0FAKE0002/FakeWebhookSecret0123abcd',
  },
  {
    kind: 'discord-webhook',
    text: 'DISCORD=https://discord.com/api/webhooks/123456789012345678/Fake-Discord_Webhook0123456789abcdefXYZ',
    secret: 'Fake-Discord_Webhook0123456789abcdefXYZ',
  },
  {
    kind: 'slack-token',
    text: 'app token xapp-1-A0FAKE0001-1234567890123-fakeappleveltoken0123',
    secret: 'xapp-1-A0FAKE0001-1234567890123-fakeappleveltoken0123',
  },
  { kind: 'stripe-key', text: 'restricted rk_live_51FakeRestrictedKey0123456789', secret: 'rk_live_51FakeRestrictedKey0123456789' },
  { kind: 'twilio-key', text: 'TWILIO_API_KEY_SID SK0123456789abcdef0123456789abcdef in the env', secret: 'SK0123456789abcdef0123456789abcdef' },
  {
    kind: 'sendgrid-key',
    text: 'sendgrid SG.FakeSendGridKey012345.FakeSendGridSecret0123456789abcdefghijklmnopq',
    secret: 'SG.FakeSendGridKey012345.FakeSendGridSecret0123456789abcdefghijklmnopq',
  },
  { kind: 'npm-token', text: '//registry.npmjs.org/:_authToken=npm_FakeNpmToken0123456789abcdefghijklmn', secret: 'npm_FakeNpmToken0123456789abcdefghijklmn' },
  {
    kind: 'pypi-token',
    text: 'twine upload -p pypi-AgEIcHlwaS5vcmcFakePyPIToken0123456789abcdefghijklmnopqrstuvwxyz',
    secret: 'pypi-AgEIcHlwaS5vcmcFakePyPIToken0123456789abcdefghijklmnopqrstuvwxyz',
  },
  {
    kind: 'azure-key',
    text: 'DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey=FakeAzureStorageKey0123456789+abc/def==;EndpointSuffix=core.windows.net',
    secret: 'FakeAzureStorageKey0123456789+abc/def==',
  },
  { kind: 'google-oauth-token', text: 'Authorization: OAuth ya29.a0FakeGoogleAccessToken0123456789abc', secret: 'ya29.a0FakeGoogleAccessToken0123456789abc' },
  {
    kind: 'huggingface-token',
    text: 'huggingface-cli login --token hf_FakeHuggingFaceToken0123456789abcdef',
    secret: 'hf_FakeHuggingFaceToken0123456789abcdef',
  },
  {
    kind: 'digitalocean-token',
    text: 'doctl auth init -t dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    secret: 'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  },
  { kind: 'shopify-token', text: 'X-Shopify-Access-Token shpat_0123456789abcdef0123456789abcdef', secret: 'shpat_0123456789abcdef0123456789abcdef' },
];
