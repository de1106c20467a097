// Toxic iShongololo: the fruit in 3D (WebGL through three.js, shipped as a static file,
// no build step). Drag to turn it, the wheel or the slider to zoom, "cut" to see the
// layers from z = 1 up to a height. Blocks: the spine it moved through (brown, the head
// red), the leaves it ate without entering (green), the solid fruit (pale, optional).
import * as THREE from "/three.module.min.js";

const COLOURS = { spine: 0x6b3f1d, leaves: 0x3d9a3d, head: 0xd0312d, solid: 0xf2d98a };
let view = null;

function makeView(box) {
  const canvas = document.createElement("canvas");
  canvas.id = "toxic-canvas";
  canvas.setAttribute("aria-label", "the fruit in 3D: drag to turn it");
  let renderer;
  try {
    renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch (err) {
    return null;
  }
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xfbf7ef);
  scene.add(new THREE.AmbientLight(0xffffff, 1.6));
  const light = new THREE.DirectionalLight(0xffffff, 2.2);
  light.position.set(2, 3, 4);
  scene.add(light);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 1000);
  const fruit = new THREE.Group();
  scene.add(fruit);
  box.appendChild(canvas);
  return { canvas, renderer, scene, camera, fruit, yaw: -0.6, pitch: 0.45, zoom: 1, size: 1, meshes: [] };
}

function instanced(blocks, colour, scale, opacity, centre) {
  const geometry = new THREE.BoxGeometry(scale, scale, scale);
  const material = new THREE.MeshLambertMaterial({ color: colour, transparent: opacity < 1, opacity,
    depthWrite: opacity >= 1 });
  const mesh = new THREE.InstancedMesh(geometry, material, Math.max(1, blocks.length));
  const matrix = new THREE.Matrix4();
  blocks.forEach(([x, y, z], i) => {
    // the fruit's z (height) is up; its y (the W axis) runs towards the viewer
    matrix.makeTranslation(x - centre[0], z - centre[2], y - centre[1]);
    mesh.setMatrixAt(i, matrix);
  });
  mesh.count = blocks.length;
  mesh.userData.blocks = blocks;
  return mesh;
}

function render() {
  const v = view;
  const width = v.canvas.clientWidth || 320;
  const height = v.canvas.clientHeight || 320;
  if (v.canvas.width !== width || v.canvas.height !== height) v.renderer.setSize(width, height, false);
  v.camera.aspect = width / height;
  v.camera.updateProjectionMatrix();
  const distance = v.size * 2.2 / v.zoom;
  v.camera.position.set(
    distance * Math.cos(v.pitch) * Math.sin(v.yaw),
    distance * Math.sin(v.pitch),
    distance * Math.cos(v.pitch) * Math.cos(v.yaw));
  v.camera.lookAt(0, 0, 0);
  v.renderer.render(v.scene, v.camera);
  v.canvas.dataset.yaw = v.yaw.toFixed(3);
  v.canvas.dataset.pitch = v.pitch.toFixed(3);
  v.canvas.dataset.rendered = String(Number(v.canvas.dataset.rendered || 0) + 1);
}

function solidBlocks(data) {
  const [l, w, h] = data.box;
  const eaten = new Set([...data.spine, ...data.leaves].map((b) => b.join(",")));
  const solid = [];
  for (let z = 1; z <= h; z++) for (let y = 1; y <= w; y++) for (let x = 1; x <= l; x++) {
    if (!eaten.has(`${x},${y},${z}`)) solid.push([x, y, z]);
  }
  return solid;
}

function build(data, options) {
  const v = view;
  for (const mesh of v.meshes) {
    v.fruit.remove(mesh);
    mesh.geometry.dispose();
    mesh.material.dispose();
  }
  v.meshes = [];
  const [l, w, h] = data.box;
  const centre = [(l + 1) / 2, (w + 1) / 2, (h + 1) / 2];
  const cut = options.cut;
  const keep = (blocks) => blocks.filter((b) => b[2] <= cut);
  const head = data.head ? [data.head] : [];
  const spine = data.spine.filter((b) => !data.head || b.join() !== data.head.join());
  const parts = [instanced(keep(spine), COLOURS.spine, 0.92, 1, centre),
    instanced(keep(data.leaves), COLOURS.leaves, 0.8, 1, centre),
    instanced(keep(head), COLOURS.head, 0.96, 1, centre)];
  if (options.solid) parts.push(instanced(keep(solidBlocks(data)), COLOURS.solid, 0.9, 0.18, centre));
  const outline = new THREE.LineSegments(
    new THREE.EdgesGeometry(new THREE.BoxGeometry(l, h, w)),
    new THREE.LineBasicMaterial({ color: 0x7a6a55 }));
  parts.push(outline);
  for (const part of parts) {
    v.fruit.add(part);
    v.meshes.push(part);
  }
  v.size = Math.max(l, w, h);
  render();
}

function listen() {
  const v = view;
  let drag = null;
  v.canvas.addEventListener("pointerdown", (event) => {
    drag = { x: event.clientX, y: event.clientY };
    v.canvas.setPointerCapture(event.pointerId);
  });
  v.canvas.addEventListener("pointermove", (event) => {
    if (!drag) return;
    v.yaw -= (event.clientX - drag.x) * 0.01;
    v.pitch = Math.max(-1.5, Math.min(1.5, v.pitch + (event.clientY - drag.y) * 0.01));
    drag = { x: event.clientX, y: event.clientY };
    render();
  });
  const end = () => { drag = null; };
  v.canvas.addEventListener("pointerup", end);
  v.canvas.addEventListener("pointercancel", end);
  v.canvas.addEventListener("wheel", (event) => {
    event.preventDefault();
    v.zoom = Math.max(0.4, Math.min(4, v.zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1)));
    render();
  }, { passive: false });
  window.addEventListener("resize", () => render());
}

// Show the run `data` (the API's `run`) in the element `box`; false without WebGL.
function show(box, data, options) {
  if (!view) {
    view = makeView(box);
    if (!view) return false;
    listen();
  }
  build(data, options);
  return true;
}

// Turn the view by `dyaw` and `dpitch` radians (the page's buttons).
function turn(dyaw, dpitch) {
  if (!view) return;
  view.yaw += dyaw;
  view.pitch = Math.max(-1.5, Math.min(1.5, view.pitch + dpitch));
  render();
}

function reset() {
  if (!view) return;
  Object.assign(view, { yaw: -0.6, pitch: 0.45, zoom: 1 });
  render();
}

BL.fruit3d = { show, turn, reset };
if (BL.onFruit3d) BL.onFruit3d();
