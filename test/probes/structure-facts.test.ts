import { describe, expect, it } from 'vitest';
import type { MessageEvent, Transcript } from '../../src/transcript/types.js';
import { generateProbes } from '../../src/probes/generate.js';
import { readStructureFacts } from '../../src/probes/structure-facts.js';

interface Turn {
  say: string;
  command?: string;
  read?: string;
  output: string;
}

/**
 * A hand-made session written in French (a Codex-like shell agent): no English or Chinese sentence
 * the language rules read, so decisions and next steps come from its structure or not at all.
 */
function frenchSession(passing = false): Transcript {
  const turns: Turn[] = [
    {
      say: "Je vais d'abord lancer les tests pour voir l'erreur exacte.",
      command: 'pytest tests/test_analyse.py -q',
      output: 'FAILED tests/test_analyse.py::test_liste_vide - IndexError: list index out of range\n1 failed, 6 passed\nexit code 1',
    },
    {
      say: "L'erreur vient d'une liste vide : je lis la fonction concernée.",
      read: 'src/analyse/lecteur.py',
      output: 'def analyser(lignes):\n    premier = lignes[0]\n    return premier.split(";")',
    },
    {
      say: 'Je cherche les autres appels de cette fonction dans le dépôt.',
      command: 'grep -rn "analyser(" src/analyse',
      output: 'src/analyse/lecteur.py:1:def analyser(lignes):\nsrc/analyse/rapport.py:14:    champs = analyser(lignes_brutes)',
    },
    {
      say: 'Je regarde comment le rapport prépare ses lignes brutes.',
      read: 'src/analyse/rapport.py',
      output:
        'def construire_rapport(chemin):\n    lignes_brutes = ouvrir(chemin)\n    champs = analyser(lignes_brutes)\n    return formater(champs, largeur=72)',
    },
    {
      say: "Je corrige la fonction pour qu'elle renvoie une liste vide sans planter.",
      command: "sed -i 's/premier = lignes\\[0\\]/if not lignes: return []\\n    premier = lignes[0]/' src/analyse/lecteur.py",
      output: '',
    },
    {
      say: 'Je relance la suite complète avec le rapport de couverture.',
      command: 'pytest tests --cov=src/analyse -q',
      output: 'FAILED tests/test_rapport.py::test_largeur - AssertionError: assert 80 == 72\n1 failed, 12 passed\nexit code 1',
    },
    {
      say: 'Le test de largeur attend 80 colonnes ; je vérifie la configuration du projet.',
      command: 'cat config/rapport.toml',
      output: '[rapport]\nlargeur = 80\nencodage = "utf-8"',
    },
    {
      say: 'La largeur vient de la configuration, pas du code : je lis la valeur au lieu de la coder en dur.',
      command: "sed -i 's/largeur=72/largeur=config.largeur/' src/analyse/rapport.py",
      output: '',
    },
    { say: 'Je relance uniquement le test de largeur pour confirmer.', command: 'pytest tests/test_rapport.py::test_largeur -q', output: '1 passed in 0.41s' },
    { say: 'Tout passe ; je lance le linter avant de conclure.', command: 'ruff check src/analyse --fix', output: 'Found 2 errors (2 fixed, 0 remaining).' },
    {
      say: 'Je vérifie le diff final avant de le proposer.',
      command: 'git diff --stat src/analyse',
      output: ' src/analyse/lecteur.py | 2 ++\n src/analyse/rapport.py | 2 +-\n 2 files changed, 3 insertions(+), 1 deletion(-)',
    },
    { say: "C'est corrigé : la liste vide est gérée et la largeur vient de la configuration.", output: '' },
  ];
  const events: MessageEvent[] = [{ type: 'message', id: 'u1', role: 'user', text: 'Corrige le bug dans le module analyse : les tests échouent depuis hier.' }];
  // Passing: every command succeeds, so no failure names a command (the held-out French session: 2 kinds).
  if (passing) for (const turn of turns) turn.output = turn.output.replace(/FAILED.*\n|exit code 1/g, '').replace(/1 failed, /g, '');
  turns.forEach((turn, i) => {
    const call =
      turn.command !== undefined
        ? { id: `c${i}`, name: 'shell', args: { command: ['bash', '-lc', turn.command] } }
        : turn.read !== undefined
          ? { id: `c${i}`, name: 'read_file', args: { path: turn.read } }
          : undefined;
    events.push({ type: 'message', id: `a${i}`, role: 'assistant', text: turn.say, ...(call !== undefined ? { toolCalls: [call] } : {}) });
    if (call !== undefined) events.push({ type: 'message', id: `t${i}`, role: 'tool', text: turn.output, toolCallId: call.id, toolName: call.name });
  });
  return { header: { type: 'session', id: 'fr', dialect: 'openai', model: 'gpt-5-codex' }, events, file: 'fr.ctx.jsonl', skipped: [], unknown: {} };
}

describe('probe kinds from structure, in any language', () => {
  it('reads the stated next action and the command chosen after a failure from tool calls alone', () => {
    const facts = readStructureFacts(frenchSession().events as MessageEvent[]);
    expect(facts.some((f) => f.kind === 'continuation' && f.answer === 'src/analyse/lecteur.py')).toBe(true);
    expect(facts.some((f) => f.kind === 'decision' && f.answer === 'grep -rn "analyser(" src/analyse')).toBe(true);
  });

  it('gives a French session at least three kinds of probe: the command chosen after a failure is a decision', () => {
    const probes = generateProbes(frenchSession(), { askAfter: 3 });
    expect(new Set(probes.map((p) => p.kind))).toEqual(new Set(['artifact', 'recall', 'continuation', 'decision']));
    expect(probes.find((p) => p.kind === 'decision')?.expected.anyOf).toEqual(['grep -rn "analyser(" src/analyse']);
  });

  it('when every command passes, what the agent wrote before a call (in French) gives the continuation', () => {
    const probes = generateProbes(frenchSession(true), { askAfter: 3 });
    const continuation = probes.find((p) => p.kind === 'continuation');
    expect(continuation?.question).toMatch(/^Which file or command did the agent turn to right after writing "/);
    expect(new Set(probes.map((p) => p.kind)).size).toBeGreaterThanOrEqual(3);
  });
});
