// The variables a template uses, read from its Handlebars syntax (the template editor's sample data
// and missing-variable warning): paths through ../, block params, with/each/if/unless, helper
// arguments and mustache-style sections; sample data that renders every one of them; and which of
// them some data lacks.
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { missingVariables, sampleDataFor, templateVariables } from '../../src/messaging/services/templates/template-variables.js';

const paths = (...sources: string[]) => templateVariables(sources).map((v) => `${v.kind}:${v.path}`);

describe('template variables', () => {
  it('follows the context through each, with, ../ and block params; skips @data, literals and helper names', () => {
    expect(paths('{{#each orders}}{{number}} {{#each lines}}{{sku}} {{../number}} {{../../shop}}{{/each}}{{/each}}')).toEqual([
      'list:orders',
      'value:orders[].number',
      'list:orders[].lines',
      'value:orders[].lines[].sku',
      'value:shop',
    ]);
    expect(paths('{{#with customer}}{{name}} {{address.city}}{{/with}}{{#each items as |item i|}}{{item.name}} {{i}} {{total}}{{/each}}')).toEqual([
      'section:customer',
      'value:customer.name',
      'value:customer.address.city',
      'list:items',
      'value:items[].name',
      // `i` is the index block param, not data; `total` is read where `this` still is the root.
      'value:total',
    ]);
    expect(paths('{{#unless paid}}{{lookup rates currency}}{{/unless}}{{@index}} {{"literal"}} {{this.title}}')).toEqual([
      'section:paid',
      'value:rates',
      'value:currency',
      'value:title',
    ]);
    expect(paths('{{#notes}}{{text}}{{/notes}}', 'Subject {{subject_line}}')).toEqual(['section:notes', 'value:notes.text', 'value:subject_line']);
  });

  it('makes sample data that renders every variable, and names what other data lacks', () => {
    const source = '{{invoice.number}}: {{#each items}}{{name}}={{amount}};{{/each}}{{#if paid}}paid{{/if}} {{customer_email}}';
    const variables = templateVariables([source]);
    const sample = sampleDataFor(variables);
    expect(missingVariables(variables, sample)).toEqual([]);
    const rendered = Handlebars.compile(source)(sample);
    expect(rendered).toBe(`INV-1001: Item 1=1,250.00;Item 2=1,250.00;paid asha@example.com`);
    expect(missingVariables(variables, { invoice: {}, items: 'not a list', paid: null })).toEqual(['invoice.number', 'items', 'paid', 'customer_email']);
    expect(missingVariables(variables, { invoice: { number: 1 }, items: [], paid: true, customer_email: 'a@b.c' })).toEqual([]);
  });

  it('throws on a template that does not parse (the route turns that into template_syntax_invalid first)', () => {
    expect(() => templateVariables(['{{#each items}}'])).toThrow();
  });
});
