// The newsroom's own extensions of the body editor (django-prose-editor / Tiptap).
//
// TextDirection: every block carries dir="auto" so an Arabic paragraph holding an
// English name, a handle or a number edits and reads in the right direction, and the
// editor itself is right-to-left on the Arabic tab and left-to-right on the English one,
// in that language, with the browser's spell check on.
//
// StoryEmbed: a social post of this story, or an image from the library, placed at a
// point in the body. The body stores only a reference (<figure data-post="12">); the
// public page renders the stored post or the image's renditions there. A post added
// in the form and not saved yet has no number: it is placed by a key written into its
// row (<figure data-post-key="…">), and the save puts the number in its place.
import { Extension, Node, Plugin } from "django-prose-editor/editor"

const BLOCKS = ["paragraph", "heading", "blockquote", "listItem"]
const DIRECTIONS = ["auto", "rtl", "ltr"]

export const TextDirection = Extension.create({
  name: "TextDirection",

  addOptions() {
    return { direction: null, language: null }
  },

  addGlobalAttributes() {
    return [
      {
        types: BLOCKS,
        attributes: {
          dir: {
            default: "auto",
            parseHTML: (element) => {
              const value = element.getAttribute("dir")
              return DIRECTIONS.includes(value) ? value : "auto"
            },
            renderHTML: (attributes) => ({ dir: attributes.dir || "auto" }),
          },
          lang: {
            default: null,
            parseHTML: (element) => element.getAttribute("lang"),
            renderHTML: (attributes) =>
              attributes.lang ? { lang: attributes.lang } : {},
          },
        },
      },
    ]
  },

  addProseMirrorPlugins() {
    // Attributes of the editable element itself: ProseMirror keeps them there.
    // The language lets the browser check spelling in Arabic on the Arabic tab.
    const attributes = { spellcheck: "true" }
    if (this.options.direction) attributes.dir = this.options.direction
    if (this.options.language) attributes.lang = this.options.language
    return [new Plugin({ props: { attributes } })]
  },
})

// ------------------------------------------------------------------ social posts

// The rows of the story's social-post inline not saved yet, with what they say.
function newPostRows(options) {
  const group = document.getElementById(`${options.new_posts_group}-group`)
  if (!group) return []
  const rows = []
  for (const row of group.querySelectorAll(".inline-related:not(.empty-form)")) {
    const field = (name) => row.querySelector(`[name$="-${name}"]`)
    const id = field("id")
    if (!field("placement_key") || (id && id.value)) continue
    const label = rowLabel(field)
    if (label) rows.push({ row, field, label })
  }
  return rows
}

function rowLabel(field) {
  const value = (name) => (field(name) ? field(name).value.trim() : "")
  const handle = value("handle").replace(/^@/, "")
  const who = handle ? `@${handle}` : value("author_name")
  const text = value("text").slice(0, 80)
  const label = [who, text].filter(Boolean).join(" — ")
  return label || value("url") || value("paste").slice(0, 80)
}

function newPostByKey(options, key) {
  return newPostRows(options).find((item) => item.field("placement_key").value === key)
}

// A key no other row holds; letters and digits only, as the sanitizer allows.
function newKey() {
  const bytes = new Uint8Array(8)
  crypto.getRandomValues(bytes)
  return `p${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

function describe(options, attrs) {
  const labels = options.labels
  if (attrs.postKey) {
    const item = newPostByKey(options, attrs.postKey)
    return {
      kind: "post",
      label: labels.post,
      prefix: item ? labels.new_post : "",
      text: item ? item.label : labels.missing_new_post,
      choice: null,
    }
  }
  const kind = attrs.post ? "post" : "image"
  const id = String(attrs.post || attrs.image)
  const choices = kind === "post" ? options.posts : options.images
  const choice = choices.find((item) => String(item.id) === id)
  const text = choice ? choice.label : labels.missing
  return { kind, label: labels[kind], prefix: "", text, choice }
}

function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(properties)) {
    if (name.startsWith("data-") || name.startsWith("aria-") || name === "role") {
      node.setAttribute(name, value)
    } else {
      node[name] = value
    }
  }
  node.append(...children)
  return node
}

let dialogs = 0

// A modal dialog with a title, `body` and the Place / Cancel buttons; `onPlace` is
// called when the editor chooses Place (Enter in the form does the same).
function openDialog(kind, title, body, onPlace, labels, canPlace = true) {
  const id = `story-embed-title-${++dialogs}`
  const button = (value, className, textContent) =>
    element("button", { type: "submit", value, className, textContent })
  const buttons = element("div", { className: "story-embed-buttons" }, [
    ...(canPlace ? [button("insert", "button default", labels.insert)] : []),
    button("cancel", "button", labels.cancel),
  ])
  const form = element("form", { method: "dialog" }, [
    element("h3", { id, textContent: title }),
    ...body,
    buttons,
  ])
  const dialog = element(
    "dialog",
    {
      className: `story-embed-dialog story-embed-dialog--${kind}`,
      "aria-labelledby": id,
    },
    [form],
  )
  document.body.append(dialog)
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "insert") onPlace()
    dialog.remove()
  })
  dialog.showModal()
  return dialog
}

function insertEmbed(editor, attrs) {
  editor.chain().focus().insertContent({ type: "storyEmbed", attrs }).run()
}

function choosePost(editor, options) {
  const labels = options.labels
  const fresh = newPostRows(options)
  if (!options.posts.length && !fresh.length) {
    const why = element("p", { textContent: labels.no_posts })
    openDialog("post", labels.insert_post, [why], () => {}, labels, false)
    return
  }
  const option = (value, textContent) => element("option", { value, textContent })
  const select = element("select", { name: "post" }, [
    ...options.posts.map((post) => option(`id:${post.id}`, post.label)),
    // Isolated (FSI … PDI): a handle's "@" stays with it beside Arabic words.
    ...fresh.map((item, index) =>
      option(`new:${index}`, `${labels.new_post} \u2068${item.label}\u2069`),
    ),
  ])
  const body = [element("label", {}, [labels.choose_post, select])]
  if (fresh.length) {
    body.push(element("p", { className: "help", textContent: labels.new_post_help }))
  }
  const place = () => {
    const [how, value] = select.value.split(":")
    if (how === "id") {
      insertEmbed(editor, { post: value })
      return
    }
    const keyField = fresh[Number(value)].field("placement_key")
    if (!keyField.value) keyField.value = newKey()
    insertEmbed(editor, { postKey: keyField.value })
  }
  openDialog("post", labels.insert_post, body, place, labels)
}

// ------------------------------------------------------------------ library images

// The image chooser searches the whole library on the server (the image
// autocomplete: titles, captions, alt texts, credits, sources and file names, with
// Arabic folded), a page at a time, and shows each image's thumbnail.
function chooseImage(editor, options) {
  const labels = options.labels
  const search = element("input", {
    type: "search",
    name: "q",
    autocomplete: "off",
    dir: "auto",
  })
  const results = element("div", {
    className: "story-embed-results",
    role: "radiogroup",
    "aria-label": labels.results,
  })
  const status = element("p", { className: "story-embed-status", role: "status" })
  const more = element("button", {
    type: "button",
    className: "button story-embed-more",
    textContent: labels.more,
    hidden: true,
  })
  const found = new Map()
  let term = ""
  let page = 0
  let asked = 0
  let timer = null

  function show(items, replace) {
    if (replace) results.replaceChildren()
    for (const item of items) {
      found.set(String(item.id), item)
      const radio = element("input", { type: "radio", name: "image", value: item.id })
      const picture = item.thumb
        ? element("img", {
            src: item.thumb,
            alt: "",
            loading: "lazy",
            width: 96,
            height: 54,
          })
        : element("span", { className: "story-embed-nothumb" })
      const title = element("span", {
        className: "story-embed-result__title",
        dir: "auto",
        textContent: item.text,
      })
      const number = element("small", { dir: "ltr", textContent: `#${item.id}` })
      results.append(
        element("label", { className: "story-embed-result" }, [
          radio,
          picture,
          title,
          number,
        ]),
      )
    }
    if (replace && items.length) results.querySelector("input").checked = true
  }

  function load(replace) {
    const number = ++asked
    const url = new URL(options.image_search, window.location.href)
    url.searchParams.set("term", term)
    url.searchParams.set("page", String(page + 1))
    status.textContent = labels.searching
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status))
        return response.json()
      })
      .then((data) => {
        if (number !== asked) return // a newer search has been asked for
        page += 1
        const before = results.querySelectorAll("input").length
        show(data.results, replace)
        if (!replace && document.activeElement === more) {
          // Keyboard users go on with the first image just loaded.
          const added = results.querySelectorAll("input")[before]
          if (added) added.focus()
        }
        more.hidden = !data.pagination.more
        const count = results.querySelectorAll("input").length
        status.textContent = count ? labels.shown.replace("%(count)s", count) : labels.none
      })
      .catch(() => {
        if (number === asked) status.textContent = labels.failed
      })
  }

  function searchNow() {
    clearTimeout(timer)
    term = search.value.trim()
    page = 0
    load(true)
  }

  search.addEventListener("input", () => {
    clearTimeout(timer)
    timer = setTimeout(searchNow, 300)
  })
  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault() // search, do not place
      searchNow()
    } else if (event.key === "ArrowDown") {
      const first = results.querySelector("input:checked") || results.querySelector("input")
      if (first) {
        event.preventDefault()
        first.focus()
      }
    }
  })
  more.addEventListener("click", () => load(false))

  const searchLabel = element("label", { className: "story-embed-search" }, [
    labels.search_images,
    search,
  ])
  const place = () => {
    const chosen = results.querySelector("input:checked")
    if (!chosen) return
    const item = found.get(chosen.value)
    // The card in the body shows the image's title and thumbnail from this list.
    if (!options.images.some((image) => String(image.id) === chosen.value)) {
      options.images.push({
        id: item.id,
        label: `${item.text} (#${item.id})`,
        thumbnail: item.thumb,
      })
    }
    insertEmbed(editor, { image: chosen.value })
  }
  openDialog(
    "image",
    labels.insert_image,
    [searchLabel, status, results, more],
    place,
    labels,
  )
  search.focus()
  load(true)
}

export const StoryEmbed = Node.create({
  name: "storyEmbed",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,

  addOptions() {
    return { posts: [], images: [], labels: {}, image_search: "", new_posts_group: "" }
  },

  addAttributes() {
    const reference = (attribute, name) => ({
      default: null,
      parseHTML: (element) => element.getAttribute(`data-${name}`),
      renderHTML: (attributes) =>
        attributes[attribute] ? { [`data-${name}`]: attributes[attribute] } : {},
    })
    return {
      post: reference("post", "post"),
      postKey: reference("postKey", "post-key"),
      image: reference("image", "image"),
    }
  },

  parseHTML() {
    return [
      { tag: "figure[data-post]" },
      { tag: "figure[data-post-key]" },
      { tag: "figure[data-image]" },
    ]
  },

  renderHTML({ HTMLAttributes }) {
    // The empty caption is dropped by the sanitizer when the body is saved; without
    // it a body holding nothing but one placed image reads as an empty element,
    // which django-prose-editor takes for an empty body and clears.
    return ["figure", HTMLAttributes, ["figcaption"]]
  },

  addNodeView() {
    return ({ node }) => {
      const { kind, label, prefix, text, choice } = describe(this.options, node.attrs)
      const dom = document.createElement("figure")
      dom.className = `story-embed story-embed--${kind}`
      dom.contentEditable = "false"
      for (const name of ["post", "postKey", "image"]) {
        if (node.attrs[name]) dom.dataset[name] = node.attrs[name]
      }
      if (choice && choice.thumbnail) {
        const thumbnail = document.createElement("img")
        thumbnail.src = choice.thumbnail
        thumbnail.alt = ""
        dom.append(thumbnail)
      }
      const caption = document.createElement("figcaption")
      const strong = document.createElement("strong")
      strong.textContent = label
      const span = document.createElement("span")
      span.dir = "auto"
      span.textContent = text
      caption.append(strong, " ", ...(prefix ? [prefix, " "] : []), span)
      dom.append(caption)
      return { dom }
    }
  },

  addMenuItems({ buttons, menu }) {
    const options = this.options
    // Always enabled: the dialogs say what to do when there is nothing to place
    // yet (a post typed in the form below counts before it is saved).
    menu.defineItem({
      name: "storyEmbedPost",
      groups: "nodes",
      command: (editor) => choosePost(editor, options),
      button: buttons.material("chat", options.labels.insert_post),
    })
    menu.defineItem({
      name: "storyEmbedImage",
      groups: "nodes",
      command: (editor) => chooseImage(editor, options),
      button: buttons.material("image", options.labels.insert_image),
    })
  },
})

// The editor names its toolbar buttons in English only ("bold", "heading 2"); the
// newsroom's admin speaks Arabic too, so the names (tooltips and what a screen
// reader announces) are replaced by the translations Django passes in.
export const ToolbarLabels = Extension.create({
  name: "ToolbarLabels",

  addOptions() {
    return { labels: {} }
  },

  onCreate() {
    const labels = this.options.labels
    const rename = () => {
      const editor = this.editor.view.dom.closest(".prose-editor")
      if (!editor) return
      for (const button of editor.querySelectorAll(".prose-menubar [title]")) {
        const label = labels[button.getAttribute("title")]
        if (label) {
          button.title = label
          button.setAttribute("aria-label", label)
        }
      }
      for (const option of editor.querySelectorAll(".prose-menubar__option")) {
        const label = labels[option.textContent.trim()]
        if (label && option.firstElementChild) option.firstElementChild.textContent = label
      }
    }
    // The menu bar is built right after the editor; rename once it is there.
    requestAnimationFrame(rename)
  },
})
