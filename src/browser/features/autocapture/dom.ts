/**
 * DOM reads that page content cannot clobber. A <form> has a property for each named field, in
 * front of the built-in ones: `<input name="localName">` makes `form.localName` that input, and
 * fields named `parentNode` or `matches` hide the form's parent and method. (The document does the
 * same for named images and forms: `<img name="host">` is `document.host`.) A click's path holds
 * forms and a submit's target is one, so autocapture reads elements through the prototypes'
 * built-in getters and methods, which no markup can shadow. (A shadowed property whose wrong value
 * is harmless, such as a form's `namespaceURI`, which is then not SVG's either, is read directly.)
 */

type BuiltIn = (this: Node, ...args: never[]) => unknown;

/** The built-in getter or method `name`, from the prototype of HTMLElement that defines it. */
function builtIn(name: string): BuiltIn {
  let proto: object | null = HTMLElement.prototype;
  let descriptor: PropertyDescriptor | undefined;
  while (proto && !(descriptor = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto) as object | null;
  return (descriptor!.get ?? descriptor!.value) as BuiltIn;
}

// Each built-in is looked up on first use, not when the module loads: a server that imports a
// module using these (`hogtail/dead-clicks` in a server-rendered app) has no HTMLElement.

/** A getter (or a method without arguments) as a function of the node. */
const read = <T>(name: string) => {
  let fn: BuiltIn | undefined;
  return (node: Node) => (fn ||= builtIn(name)).call(node) as T;
};

/** A method with one argument as a function of the element. */
const ask = <T>(name: string) => {
  let fn: ((this: Node, arg: string) => unknown) | undefined;
  return (element: Element, arg: string) => (fn ||= builtIn(name) as (this: Node, arg: string) => unknown).call(element, arg) as T;
};

export const localNameOf = read<string>('localName');
export const parentOf = read<ParentNode | null>('parentNode');
export const nodeTypeOf = read<number>('nodeType');
export const rootOf = read<Node>('getRootNode');
export const previousElementOf = read<Element | null>('previousElementSibling');
export const firstChildOf = read<ChildNode | null>('firstChild');
export const nextSiblingOf = read<ChildNode | null>('nextSibling');
export const firstElementOf = read<Element | null>('firstElementChild');
export const nextElementOf = read<Element | null>('nextElementSibling');
export const attributeNamesOf = read<string[]>('getAttributeNames');
export const attributeOf = ask<string | null>('getAttribute');
export const matches = ask<boolean>('matches');
export const closest = ask<Element | null>('closest');
